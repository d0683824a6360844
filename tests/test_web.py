"""End-to-end tests of the web page in headless Debian chromium (Playwright's sync API).

They drive ``matjip serve`` (a subprocess over the sample data, see ``api_live_server``):
type a question, watch the answer stream in, see cards and numbered map markers, answer a
clarification with a button, send GPS with "내 위치", and save screenshots to test-artifacts/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from support.browser import CHROMIUM, LAUNCH_ARGS, PHONE, new_page, open_app

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
DESKTOP = {"width": 1280, "height": 800}
HONGDAE = {"latitude": 37.5571, "longitude": 126.9245}

# Counts updates of answer bubbles (text changes, or the rendered Markdown replaced): more than
# one means the answer arrived in pieces.
OBSERVE_JS = """
() => {
  window.__answerMutations = 0;
  new MutationObserver((records) => {
    for (const r of records) {
      const text = r.type === "characterData" && r.target.parentElement && r.target.parentElement.closest(".answer");
      const rendered = r.type === "childList" && r.target.classList && r.target.classList.contains("answer")
        && r.addedNodes.length > 0;
      if (text || rendered) window.__answerMutations += 1;
    }
  }).observe(document.getElementById("log"), { subtree: true, characterData: true, childList: true });
}
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} not found (install Debian's chromium: apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright (Python package) is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()


def ask(page: Any, text: str) -> Any:
    """Send ``text`` through the form; return the finished assistant message."""
    before = page.locator("[data-testid=assistant-message]").count()
    page.fill("#message", text)
    page.press("#message", "Enter")
    return finish(page, before)


def finish(page: Any, before: int) -> Any:
    msg = page.locator("[data-testid=assistant-message]").nth(before)
    msg.wait_for()
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=assistant-message]')[n]?.dataset.done === 'true'",
        arg=before,
        timeout=30_000,
    )
    return msg


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000
    return path


def test_search_streams_answer_cards_and_markers(browser: Any, api_live_server: str) -> None:
    page = new_page(browser, PHONE)
    open_app(page, api_live_server)
    page.evaluate(OBSERVE_JS)
    msg = ask(page, "강남역 일식 맛집")
    answer = msg.locator("[data-testid=answer]").inner_text()
    assert len(answer) > 20 and "강남" in answer
    assert page.evaluate("window.__answerMutations") > 1  # the answer arrived in several chunks
    cards = msg.locator("[data-testid=card]")
    assert cards.count() >= 1
    assert all(
        c == "일식"
        for c in page.evaluate(
            "() => [...document.querySelectorAll('.card-meta')].map(e => e.textContent.split(' · ')[0])"
        )
    )
    markers = page.locator("[data-testid=map-marker]")
    assert markers.count() == cards.count()
    name = cards.first.locator(".card-name").inner_text()
    page.locator("[data-testid=map-marker][aria-label^='1. ']").click()
    popup = page.locator("#map-popup")
    assert popup.is_visible() and name in popup.inner_text()
    # plan and trace in the collapsible panel
    details = msg.locator("[data-testid=debug]")
    assert details.get_attribute("open") is None
    details.locator("summary").click()
    plan = json.loads(details.locator("pre.plan").inner_text())
    assert plan["cuisine"] == ["일식"] and plan["location"]["name"]
    assert details.locator("table.trace tr").count() > 3
    # the layout fits a phone: nothing overflows horizontally
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "web_phone_search.png")
    assert not page.errors, page.errors


def test_clarification_buttons(browser: Any, api_live_server: str) -> None:
    page = new_page(browser, PHONE)
    open_app(page, api_live_server)
    msg = ask(page, "양평 맛집")
    buttons = msg.locator("[data-testid=choices] button")
    assert buttons.count() >= 2
    labels = buttons.all_inner_texts()
    assert any("5호선" in t for t in labels) and any("경의중앙선" in t for t in labels)
    assert msg.locator("[data-testid=card]").count() == 0
    shot(page, "web_phone_clarification.png")
    before = page.locator("[data-testid=assistant-message]").count()
    buttons.filter(has_text="5호선").click()
    follow = finish(page, before)
    assert page.locator(".msg.user .bubble").last.inner_text().startswith("양평역 (5호선")
    assert follow.locator("[data-testid=answer]").inner_text().strip()
    follow.locator("[data-testid=debug] summary").click()
    plan = json.loads(follow.locator("pre.plan").inner_text())
    assert "양평" in plan["location"]["name"] and plan["location"]["lon"] < 127.0  # the Seoul one
    assert page.locator("[data-testid=map-marker]").count() == follow.locator("[data-testid=card]").count()
    assert not page.errors, page.errors


def test_my_location_is_sent_with_the_next_message(browser: Any, api_live_server: str) -> None:
    page = new_page(browser, PHONE, geolocation=HONGDAE, permissions=["geolocation"])
    open_app(page, api_live_server)
    page.click("#locate")
    page.wait_for_selector("#gps-chip:not([hidden])")
    assert page.locator("[data-testid=me-marker]").count() == 1
    with page.expect_request(lambda r: r.url.endswith("/v1/chat")) as req:
        msg = ask(page, "내 근처 국밥집")
    body = json.loads(req.value.post_data)
    assert body["location"] == {"lat": HONGDAE["latitude"], "lon": HONGDAE["longitude"]}
    assert page.locator("#gps-chip").is_hidden()  # only the next message carries it
    msg.locator("[data-testid=debug] summary").click()
    plan = json.loads(msg.locator("pre.plan").inner_text())
    assert plan["location"]["lat"] == pytest.approx(HONGDAE["latitude"])
    with page.expect_request(lambda r: r.url.endswith("/v1/chat")) as req2:
        ask(page, "거기 말고 강남역 국밥집")
    assert "location" not in json.loads(req2.value.post_data)
    assert not page.errors, page.errors


def test_desktop_layout_and_new_chat(browser: Any, api_live_server: str) -> None:
    page = new_page(browser, DESKTOP)
    open_app(page, api_live_server)
    ask(page, "홍대 고기집")
    map_box = page.locator("#map").bounding_box()
    log_box = page.locator("#log").bounding_box()
    assert map_box["x"] > log_box["x"]  # map on the right, chat on the left
    shot(page, "web_desktop.png")
    sid = page.evaluate("sessionStorage.getItem('matjip.session')")
    assert sid
    page.click("#new-chat")
    assert page.locator("[data-testid=assistant-message]").count() == 0
    assert page.evaluate("sessionStorage.getItem('matjip.session')") is None
    assert not page.errors, page.errors


# --- issue 16: rendered answers, map links, open status, 더 보기 and sort, coverage ---------------

OPEN_STATUS = re.compile(
    r"^(영업 중 · (\d\d:\d\d (마감|브레이크타임)|24시간)|곧 (마감|브레이크타임) · \d\d:\d\d"
    r"|브레이크타임 \d\d:\d\d–\d\d:\d\d|영업 전 · \d\d:\d\d 오픈|오늘 영업 종료|오늘 휴무"
    r"|(오늘 )?영업시간 정보 없음|오늘 영업일 아님 \([월화수목금토일,~]+ 영업\))$"
)
KAKAO_PLACE = "https://place.map.kakao.com/"  # the demo data's place ids are Kakao Map ids


def cards_of(msg: Any) -> list[dict[str, Any]]:
    return msg.evaluate(
        """m => [...m.querySelectorAll('[data-testid=card]')].map(c => ({
            id: c.dataset.id,
            name: c.querySelector('.card-name').textContent,
            status: c.querySelector('[data-testid=open-status]')?.textContent || '',
            facts: c.querySelector('.card-facts')?.textContent || '',
            maps: [...c.querySelectorAll('[data-testid=map-link]')].map(a => a.href),
            directions: [...c.querySelectorAll('[data-testid=directions-link]')].map(a => a.href),
        }))"""
    )


def test_answer_is_rendered_and_cards_link_maps_and_say_open(browser: Any, api_live_server: str) -> None:
    page = new_page(browser, PHONE)
    open_app(page, api_live_server)
    msg = ask(page, "잠실역 치킨집")
    bubble = msg.locator("[data-testid=answer]")
    text = bubble.inner_text()
    assert "**" not in text  # no literal Markdown
    assert bubble.locator("strong").count() >= 1 and bubble.locator("li").count() >= 2
    # the restaurant names are the bold headings
    cards = cards_of(msg)
    assert cards
    assert [s.inner_text() for s in bubble.locator("strong").all()][: len(cards)] == [
        f"{i}. {c['name']}" for i, c in enumerate(cards, start=1)
    ]
    for card in cards:
        assert card["maps"] == [KAKAO_PLACE + card["id"]]
        assert len(card["directions"]) == 1
        assert unquote(card["directions"][0]).startswith("https://map.kakao.com/link/from/잠실역,")
        assert OPEN_STATUS.match(card["status"]), card["status"]
        assert "도보 약" in card["facts"]
    assert msg.locator("[data-testid=map-link]").first.get_attribute("target") == "_blank"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    bubble.scroll_into_view_if_needed()
    shot(page, "web_phone_answer_markdown.png")
    msg.locator("[data-testid=card]").first.scroll_into_view_if_needed()
    shot(page, "web_phone_cards.png")
    assert not page.errors, page.errors


def test_more_results_and_sort(browser: Any, api_live_server: str) -> None:
    page = new_page(browser, DESKTOP)
    open_app(page, api_live_server)
    msg = ask(page, "잠실역 맛집")
    first = [c["id"] for c in cards_of(msg)]
    assert first
    with page.expect_request(lambda r: r.url.endswith("/v1/results")) as req:
        msg.locator("[data-testid=more]").click()
    assert json.loads(req.value.post_data)["exclude_ids"] == first
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=card]').length > n && !document.querySelector('#send').disabled",
        arg=len(first),
    )
    after = [c["id"] for c in cards_of(msg)]
    assert after[: len(first)] == first
    new = after[len(first) :]
    assert new and not set(new) & set(first)  # new restaurants, none shown twice
    assert page.locator("[data-testid=map-marker]").count() == len(after)
    shot(page, "web_desktop_more.png")
    # 평점 순: the cards again, best rated first
    with page.expect_request(lambda r: r.url.endswith("/v1/results")) as req:
        msg.locator("[data-sort=rating]").click()
    assert json.loads(req.value.post_data) == {
        "session_id": page.evaluate("sessionStorage.getItem('matjip.session')"),
        "sort": "rating",
        "exclude_ids": [],
    }
    page.wait_for_selector("[data-sort=rating][aria-pressed=true]")
    page.wait_for_function("!document.querySelector('#send').disabled")
    ratings = [float(m.group(1)) for c in cards_of(msg) if (m := re.search(r"★ (\d\.\d)", c["facts"]))]
    assert ratings and ratings == sorted(ratings, reverse=True)
    msg.locator("[data-testid=debug] summary").click()
    assert json.loads(msg.locator("pre.plan").inner_text())["sort"] == "rating"
    # 가격 순 is sent as the plan's sort too
    with page.expect_request(lambda r: r.url.endswith("/v1/results")) as req:
        msg.locator("[data-sort=price]").click()
    assert json.loads(req.value.post_data)["sort"] == "price"
    page.wait_for_selector("[data-sort=price][aria-pressed=true]")
    assert not page.errors, page.errors


def test_more_results_on_a_phone(browser: Any, api_live_server: str) -> None:
    page = new_page(browser, PHONE)
    open_app(page, api_live_server)
    msg = ask(page, "잠실역 맛집")
    n = msg.locator("[data-testid=card]").count()
    msg.locator("[data-testid=more]").click()
    page.wait_for_function("n => document.querySelectorAll('[data-testid=card]').length > n", arg=n)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    msg.locator("[data-testid=sort-bar]").scroll_into_view_if_needed()
    shot(page, "web_phone_more.png")
    assert not page.errors, page.errors


SSE_WITH_MARKUP = [
    ("session", {"session_id": "xss-test"}),
    (
        "results",
        [
            {
                "id": "1",
                "name": "<script>window.__pwned = 1</script>스시 <b>하나</b>",
                "cuisine": "일식",
                "category": '<img src=x onerror="window.__pwned = 2">',
                "address": "서울 송파구 <i>어딘가</i>",
                "matched": ["<u>조건</u>"],
                "menus": [{"name": '<svg onload="window.__pwned = 3">', "price": 1000}],
                "open_status": {"state": 'open" onmouseover="x', "label": "<b>영업 중</b>"},
                "map_links": [
                    {"kind": "place", "label": "<b>지도</b>", "url": "javascript:window.__pwned = 4"},
                    {
                        "kind": "search",
                        "label": "카카오맵 검색",
                        "url": "https://map.kakao.com/?q=%3Cscript%3E",
                    },
                ],
                "source_type": "internal",
            }
        ],
    ),
    ("answer", "**1. <script>window.__pwned = 5</script>스시 하나** (일식)\n"),
    ("answer", '- 메뉴: <img src=x onerror="window.__pwned = 6"> 1,000원\n'),
    ("answer", "- [링크](javascript:window.__pwned=7) &amp; <b>굵게</b>\n"),
    ("trace", []),
    ("end", "[DONE]"),
]


def test_markup_in_names_is_shown_as_text(browser: Any, api_live_server: str) -> None:
    page = new_page(browser, PHONE)
    body = "".join(
        f"event: {e}\ndata: {d if e == 'end' else json.dumps(d, ensure_ascii=False)}\n\n"
        for e, d in SSE_WITH_MARKUP
    )
    page.route(
        "**/v1/chat",
        lambda route: route.fulfill(status=200, content_type="text/event-stream", body=body),
    )
    open_app(page, api_live_server)
    msg = ask(page, "아무거나")
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#log script, #log img, #log svg, #log b, #log i, #log u").count() == 0
    card = msg.locator("[data-testid=card]")
    assert card.locator(".card-name").inner_text() == "<script>window.__pwned = 1</script>스시 <b>하나</b>"
    assert card.locator("[data-testid=open-status]").inner_text() == "<b>영업 중</b>"
    links = card.locator("[data-testid=map-link]")
    assert links.count() == 1 and links.first.get_attribute("href") == "https://map.kakao.com/?q=%3Cscript%3E"
    answer = msg.locator("[data-testid=answer]")
    assert answer.locator("strong").inner_text() == "1. <script>window.__pwned = 5</script>스시 하나"
    text = answer.inner_text()
    assert '<img src=x onerror="window.__pwned = 6">' in text and "&amp; <b>굵게</b>" in text
    assert answer.locator("a").count() == 0
    assert page.evaluate("window.__pwned") is None
    assert not page.errors, page.errors


def test_coverage_line_on_the_empty_page(browser: Any, api_live_server: str) -> None:
    page = new_page(browser, PHONE)
    open_app(page, api_live_server)
    line = page.locator("[data-testid=coverage]")
    line.wait_for(state="visible")
    text = line.inner_text()
    assert text.startswith("데이터 범위: 식당 ") and "송파구" in text
    shot(page, "web_phone_empty.png")
    desktop = new_page(browser, DESKTOP)
    open_app(desktop, api_live_server)
    desktop.locator("[data-testid=coverage]").wait_for(state="visible")
    shot(desktop, "web_desktop_empty.png")
    assert not page.errors and not desktop.errors


def test_a_course_is_shown_in_order_and_joined_on_the_map(browser: Any, api_live_server: str) -> None:
    """Issue 14: a course's stops are cards in the order to visit them, each with its time and role
    and the walk from the previous stop, joined by a line on the map; no sort bar for a course."""
    page = new_page(browser, PHONE)
    open_app(page, api_live_server)
    msg = ask(page, "잠실에서 점심-카페-저녁 코스 짜줘")
    cards = msg.locator("[data-testid=card]")
    assert cards.count() >= 2
    facts = [cards.nth(i).locator(".card-facts").inner_text() for i in range(cards.count())]
    # lunch at its usual 12:30, or at the time asked when that is up to 3 hours after it (a real clock)
    assert re.search(r"점심 1[2-5]:\d\d · 식사", facts[0]) and "앞 장소에서 약" not in facts[0]
    assert all("앞 장소에서 약" in f for f in facts[1:])
    assert page.locator("[data-testid=course-line]").count() == 1
    assert page.locator("[data-testid=sort-bar]").count() == 0
    assert not page.errors, page.errors
