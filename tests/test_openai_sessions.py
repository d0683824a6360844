"""Issue 13, defect 1: conversations on the OpenAI-compatible endpoint are never shared by two clients.

The official ``openai`` client talks to a running ``matjip serve`` (``api_live_server``). Clients
whose first question is the same get the same first answer; their next turns must still continue
their own conversations: across API keys (the key is the session namespace), within one key (each
remembered history continues one request), and with the ``X-Matjip-Session`` header echoed.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest

FIRST = "강남역 일식 맛집"
OTHER = "홍대 고기집 추천해줘"
FOLLOW = "두 번째 집 주소 알려줘"


def client(base: str, key: str) -> Any:
    openai = pytest.importorskip("openai")
    return openai.OpenAI(base_url=base + "/v1", api_key=key, max_retries=0, timeout=120)


def ask(oa: Any, messages: list[dict[str, str]], **headers: str) -> tuple[str, str]:
    """(answer, session id the server returned)."""
    raw = oa.chat.completions.with_raw_response.create(
        model="matjip-agent", messages=messages, extra_headers=headers or None
    )
    return raw.parse().choices[0].message.content, raw.headers["x-matjip-session"]


def names(answer: str) -> list[str]:
    return re.findall(r"\*\*\d+\. ([^*]+)\*\*", answer)


@pytest.fixture(scope="module")
def reference(api_live_server: str) -> tuple[str, str, str]:
    """One client alone: the first answer, and the follow-up answer about its 2nd restaurant."""
    oa = client(api_live_server, "sk-reference-0000")
    first, _ = ask(oa, [{"role": "user", "content": FIRST}])
    assert len(names(first)) >= 2, first
    history = [{"role": "user", "content": FIRST}, {"role": "assistant", "content": first}]
    follow, _ = ask(oa, [*history, {"role": "user", "content": FOLLOW}])
    second = names(first)[1]
    assert second in follow, follow
    return first, follow, second


def test_two_keys_same_first_question_then_diverge(api_live_server: str, reference: Any) -> None:
    first_ref, _, second = reference
    a, b = client(api_live_server, "sk-client-a-1111"), client(api_live_server, "sk-client-b-2222")
    a1, sa = ask(a, [{"role": "user", "content": FIRST}])
    b1, sb = ask(b, [{"role": "user", "content": FIRST}])
    assert a1 == b1 == first_ref and sa != sb
    ask(
        a,
        [
            {"role": "user", "content": FIRST},
            {"role": "assistant", "content": a1},
            {"role": "user", "content": OTHER},
        ],
    )
    b2, sb2 = ask(
        b,
        [
            {"role": "user", "content": FIRST},
            {"role": "assistant", "content": b1},
            {"role": "user", "content": FOLLOW},
        ],
    )
    assert sb2 == sb and second in b2, b2


def test_one_key_two_clients_same_history_never_share(api_live_server: str, reference: Any) -> None:
    _, _, second = reference
    a, b = client(api_live_server, "sk-shared-3333"), client(api_live_server, "sk-shared-3333")
    a1, sa = ask(a, [{"role": "user", "content": FIRST}])
    b1, sb = ask(b, [{"role": "user", "content": FIRST}])
    _a2, sa2 = ask(
        a,
        [
            {"role": "user", "content": FIRST},
            {"role": "assistant", "content": a1},
            {"role": "user", "content": OTHER},
        ],
    )
    b2, sb2 = ask(
        b,
        [
            {"role": "user", "content": FIRST},
            {"role": "assistant", "content": b1},
            {"role": "user", "content": FOLLOW},
        ],
    )
    assert {sa2, sb2} == {sa, sb} and sa2 != sb2
    assert second in b2 and "홍대" not in b2, b2


def test_echoed_session_header_continues_and_is_scoped_to_the_key(
    api_live_server: str, reference: Any
) -> None:
    _, _, second = reference
    a, b = client(api_live_server, "sk-echo-a-4444"), client(api_live_server, "sk-echo-b-5555")
    _a1, sa = ask(a, [{"role": "user", "content": FIRST}])
    # the follow-up alone (a client that does not resend history) continues by the header
    a2, sa2 = ask(a, [{"role": "user", "content": FOLLOW}], **{"X-Matjip-Session": sa})
    assert sa2 == sa and second in a2, a2
    # another key cannot join A's session by echoing its id: it gets a session of its own
    b1, sb = ask(b, [{"role": "user", "content": FOLLOW}], **{"X-Matjip-Session": sa})
    assert sb != sa and second not in b1


def test_concurrent_clients_never_land_in_each_others_sessions(api_live_server: str, reference: Any) -> None:
    """Eight clients (four keys, two per key with distinct users half of the time), same first
    question at once, then half change the subject while the other half ask about result 2."""
    _, _, second = reference
    n = 8
    barrier = threading.Barrier(n)
    outcome: dict[int, tuple[str, str, str]] = {}
    errors: list[BaseException] = []

    def converse(i: int) -> None:
        try:
            oa = client(api_live_server, f"sk-concurrent-{i // 2}-9999")
            extra: dict[str, Any] = {"user": f"u{i}"} if i % 4 == 3 else {}
            barrier.wait(120)
            raw = oa.chat.completions.with_raw_response.create(
                model="matjip-agent", messages=[{"role": "user", "content": FIRST}], **extra
            )
            a1, s1 = raw.parse().choices[0].message.content, raw.headers["x-matjip-session"]
            barrier.wait(120)
            question = FOLLOW if i % 2 else OTHER
            raw = oa.chat.completions.with_raw_response.create(
                model="matjip-agent",
                messages=[
                    {"role": "user", "content": FIRST},
                    {"role": "assistant", "content": a1},
                    {"role": "user", "content": question},
                ],
                **extra,
            )
            outcome[i] = (s1, raw.headers["x-matjip-session"], raw.parse().choices[0].message.content)
        except BaseException as exc:
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=converse, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not errors, errors
    assert len({s1 for s1, _, _ in outcome.values()}) == n  # one session per client
    # each session is continued by exactly one client (two clients of one key with identical
    # histories may swap their identical sessions; never share one)
    assert sorted(s2 for _, s2, _ in outcome.values()) == sorted(s1 for s1, _, _ in outcome.values())
    for i, (s1, s2, answer) in outcome.items():
        if i // 2 in (1, 3):  # a key whose second client names a user
            assert s2 == s1, (i, s1, s2)
        if i % 2:
            assert second in answer and "홍대" not in answer, (i, answer)
