"""axe-core (WCAG 2.0-2.2 A and AA) on every screen, light and dark, phone and desktop; reflow."""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from tests.server.harness import live_server

from .ui import (
    DESKTOP,
    PHONE,
    SMALL_PHONE,
    create_game,
    hand,
    join_game,
    make_moves,
    play_until,
    summary_shown,
)

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def violations(page: Page) -> list[str]:
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": TAGS}})
    return [
        f"{v['id']}: {v['help']} ({', '.join(str(n['target']) for n in v['nodes'][:3])})"
        for v in results.response["violations"]
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [SMALL_PHONE, PHONE, DESKTOP], ids=["375", "390", "1280"])
def test_no_violations_on_any_screen(
    browser: Browser, tmp_path: Path, screenshots: Path, scheme: str, viewport: dict[str, int]
) -> None:
    with live_server(tmp_path, hand_pause_seconds=60) as server:
        # Reduced motion: a card caught halfway through its 0.2 s flight is not a finding.
        contexts = [
            browser.new_context(
                viewport=viewport,  # type: ignore[arg-type]
                color_scheme=scheme,  # type: ignore[arg-type]
                locale="pl-PL",
                reduced_motion="reduce",
            )
            for _ in range(3)
        ]
        pages = [c.new_page() for c in contexts]
        found: dict[str, list[str]] = {}
        tag = f"{viewport['width']}-{scheme}"
        pages_by_path = (
            ("/", "home"),
            ("/zasady", "rules"),
            ("/regulamin", "terms"),
            ("/kontakt", "contact"),  # not configured here; the form: tests/web/test_contact.py
        )
        for path, name in pages_by_path:
            pages[0].goto(server.base + path)
            pages[0].wait_for_load_state("networkidle")
            found[name] = violations(pages[0])
            pages[0].screenshot(path=screenshots / f"{name}-{tag}.png", full_page=True)
        pages[0].goto(server.base + "/")
        code = create_game(pages[0], "Ala", 3)
        found["waiting"] = violations(pages[0])
        pages[1].goto(server.base + "/")
        join_game(pages[1], code, "Ola")
        pages[2].goto(server.base + "/")
        join_game(pages[2], code, "Ela")
        hand(pages[0]).get_by_role("button").first.wait_for()
        found["bidding"] = violations(pages[0])
        pages[0].screenshot(path=screenshots / f"table-{tag}.png", full_page=True)
        make_moves(pages, 6)
        found["play"] = violations(pages[0])
        play_until(pages, summary_shown(pages[0]))
        found["summary"] = violations(pages[0])
        pages[0].screenshot(path=screenshots / f"summary-{tag}.png", full_page=True)
        if pages[0].locator("#tab-chat").is_visible():  # a narrow screen: the drawer
            for panel in ("scores", "log", "chat"):
                pages[0].locator(f"#tab-{panel}").click()
                found[f"drawer-{panel}"] = violations(pages[0])
                pages[0].screenshot(path=screenshots / f"drawer-{panel}-{tag}.png")
            pages[0].get_by_role("button", name="Wróć do stołu").click()
        watcher = browser.new_context(
            viewport=viewport,  # type: ignore[arg-type]
            color_scheme=scheme,  # type: ignore[arg-type]
            reduced_motion="reduce",
        ).new_page()
        watcher.goto(f"{server.base}/g/{code}")
        watcher.get_by_text("Oglądasz grę jako widz").wait_for()
        found["spectator"] = violations(watcher)
        for context in [*contexts, watcher.context]:
            context.close()
    assert {screen: v for screen, v in found.items() if v} == {}


@pytest.mark.parametrize("path", ["/", "/zasady", "/regulamin", "/kontakt", "table"])
def test_reflow_at_320_px_with_text_at_200_percent(
    browser: Browser, tmp_path: Path, path: str
) -> None:
    with live_server(tmp_path) as server:
        if path == "table":
            code, _ = server.full_table(3)
            path = f"/g/{code}"  # a spectator's table, mid-bidding
        context = browser.new_context(viewport={"width": 320, "height": 640}, bypass_csp=True)  # type: ignore[arg-type]
        page = context.new_page()
        page.goto(server.base + path)
        page.wait_for_load_state("networkidle")
        page.add_style_tag(content="html { font-size: 200% !important; }")
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
        context.close()
