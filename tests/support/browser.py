"""Headless Debian chromium for the page tests (Playwright's sync API): where it is, how it is
launched, a page that may only talk to the loopback server, and the app opened on it."""

from __future__ import annotations

from typing import Any

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}


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
