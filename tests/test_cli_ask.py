"""``matjip ask`` in the terminal (issue 16): answers rendered as Markdown, and a running
``matjip serve`` over the same data reused instead of loading the index again."""

from __future__ import annotations

import io
import socket
from pathlib import Path

import pytest
from rich.console import Console

from matjip.agent.models import TurnEvent
from matjip.commands.agent import render_answer, run_ask, server_for
from matjip.settings import Settings

ANSWER = (
    "잠실역 근처 치킨집 2곳을 찾았어요.\n\n"
    "**1. 교촌치킨 방이2호점** (치킨 · 잠실역에서 660m)\n"
    "- 대표 메뉴: 허니콤보 23,000원\n"
    "- 오늘 영업: 11:00~03:00\n\n"
    "**2. <script>alert(1)</script> 치킨** (치킨)\n"
)


def test_the_answer_is_rendered_as_markdown_not_shown_raw() -> None:
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=False, color_system=None)
    chunks = [ANSWER[i : i + 7] for i in range(0, len(ANSWER), 7)]
    events = [TurnEvent(event="answer", data=c) for c in chunks]
    render_answer(console, events)
    text = out.getvalue()
    assert "**" not in text
    assert "1. 교촌치킨 방이2호점 (치킨 · 잠실역에서 660m)" in text
    assert "• 대표 메뉴: 허니콤보 23,000원" in text
    assert "- 대표 메뉴" not in text
    assert "<script>alert(1)</script> 치킨" in text  # a name is text, whatever it contains


def test_the_answer_is_rendered_with_styles_in_a_terminal() -> None:
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=True, color_system="standard")
    render_answer(console, [TurnEvent(event="answer", data=ANSWER)])
    text = out.getvalue()
    assert "\x1b[1m" in text  # bold
    assert "**" not in text


def _closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nothing listens once the socket is closed


def test_no_server_means_no_reuse(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, port=_closed_port(), _env_file=None)  # type: ignore[call-arg]
    assert server_for(settings) is None


def test_ask_reuses_a_running_server_over_the_same_data(
    api_live_server: str, api_data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = int(api_live_server.rsplit(":", 1)[1])
    same = Settings(data_dir=api_data_dir, port=port, _env_file=None)  # type: ignore[call-arg]
    other = Settings(data_dir=tmp_path, port=port, _env_file=None)  # type: ignore[call-arg]
    assert server_for(same) == ("127.0.0.1", port)
    assert server_for(other) is None  # another data directory: answered here, not there
    run_ask(same, "강남역 일식 맛집", None, None, trace=True, as_json=False, session=None)
    captured = capsys.readouterr()
    assert "강남" in captured.out and "**" not in captured.out
    assert "query_input" in captured.out  # the server's trace
    assert f"matjip serve 127.0.0.1:{port}" in captured.err
    # a follow-up in the same session goes to the same server's session
    sid = captured.err.split("session: ", 1)[1].split()[0]
    run_ask(same, "첫 번째 집 전화번호 알려줘", None, None, trace=False, as_json=False, session=sid)
    follow = capsys.readouterr()
    assert "전화번호" in follow.out and sid in follow.err
