"""End-to-end tests of the web page in headless Debian chromium (Playwright's sync API).

They drive ``matjip serve`` (a subprocess over the sample data, see ``api_live_server``):
type a question, watch the answer stream in, see cards and numbered map markers, answer a
clarification with a button, send GPS with "내 위치", and save screenshots to test-artifacts/.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
HONGDAE = {"latitude": 37.5571, "longitude": 126.9245}

# Counts text mutations of answer bubbles: more than one means the answer arrived in pieces.
OBSERVE_JS = """
() => {
  window.__answerMutations = 0;
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "characterData" && r.target.parentElement && r.target.parentElement.closest(".answer")) {
        window.__answerMutations += 1;
      }
    }
  }).observe(document.getElementById("log"), { subtree: true, characterData: true });
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


def new_page(browser: Any, viewport: dict[str, int], **ctx: Any) -> Any:
    context = browser.new_context(viewport=viewport, locale="ko-KR", **ctx)
    context.route(  # offline: no request may leave the loopback server
        "**/*",
        lambda route: (
            route.continue_() if route.request.url.startswith("http://127.0.0.1") else route.abort()
        ),
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


def open_app(page: Any, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#map[data-base-loaded=true]")
    assert page.locator("#map-base path").count() > 25  # Seoul gu + capital-region sigungu


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
    msg = ask(page, "양평역 맛집")
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
