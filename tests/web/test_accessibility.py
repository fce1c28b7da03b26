"""axe-core (WCAG 2.0-2.2 A and AA) on every screen, light and dark, phone and desktop, in
every language; reflow."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from playwright.sync_api import Browser, Page, expect

from tests.server.harness import live_server
from tysiac.web import STATIC

from .ui import (
    DESKTOP,
    LOCALES,
    PHONE,
    SMALL_PHONE,
    create_game,
    hand,
    make_moves,
    new_page,
    outside_catalogue,
    play_until,
    polish_left,
    say,
    socket_seats,
    summary_shown,
)

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# The rules of TAGS that read colours: all that a colour scheme can change, since the dark
# scheme sets colours only (test_the_dark_scheme_changes_colours_only).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def violations(page: Page, colours_only: bool = False) -> list[str]:
    """axe's WCAG A and AA violations on the page as it is, or only those of its colours
    (``colours_only``: the same page again in the other scheme)."""
    # axe-core is put in once per document (570 kB to send and compile each time else).
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    chosen = {"type": "rule", "values": COLOUR_RULES} if colours_only else None
    # Only the violations come back whole (the other result types are not read).
    options = {
        "runOnly": chosen or {"type": "tag", "values": TAGS},
        "resultTypes": ["violations"],
    }
    results = page.evaluate("(options) => axe.run(document, options)", options)
    return [
        f"{v['id']}: {v['help']} ({', '.join(str(n['target']) for n in v['nodes'][:3])})"
        for v in results["violations"]
    ]


SCHEMES: tuple[Literal["light", "dark"], ...] = ("light", "dark")
# A rule of the dark scheme: inside `@media (prefers-color-scheme: dark)` or under
# `[data-theme="dark"]` (the scheme chosen in the settings), up to its declarations.
DARK_RULE = re.compile(
    r"(?:@media \(prefers-color-scheme: dark\) \{\s*[^{]*"
    r'|[^{}]*\[data-theme="dark"\][^{]*)'
    r"\{([^}]*)\}"
)
COLOUR = re.compile(r"#[0-9a-f]{3,8}|rgb\([^)]*\)")


def test_the_dark_scheme_changes_colours_only() -> None:
    """Why a page is scanned whole in the light scheme and for its colours in the dark one:
    every rule of the dark scheme, in every style sheet, sets the colour scheme or a
    colour, nothing else."""
    rules = 0
    for sheet in sorted((STATIC / "css").glob("*.css")):
        css = sheet.read_text(encoding="utf-8")
        found = DARK_RULE.findall(css)
        mentions = css.count("prefers-color-scheme: dark") + css.count('data-theme="dark"')
        assert len(found) == mentions, sheet.name  # no dark rule of another shape
        for block in found:
            for declaration in filter(None, (d.strip() for d in block.split(";"))):
                name, value = (part.strip() for part in declaration.split(":", 1))
                assert (name, value) == ("color-scheme", "dark") or (
                    (name.startswith("--") or name == "fill") and COLOUR.fullmatch(value)
                ), (sheet.name, declaration)
        rules += len(found)
    assert rules == 4


# Each width in one language, each language at one width: every screen is checked in
# every language and at every width, for the time of one hand a width. Ukrainian, with
# the longest words, on the smallest phone.
WIDTHS = [(SMALL_PHONE, "uk"), (PHONE, "en"), (DESKTOP, "pl")]
NICKS = ("Ala", "Ola", "Ela")


@pytest.mark.parametrize(("viewport", "lang"), WIDTHS, ids=["375-uk", "390-en", "1280-pl"])
def test_no_violations_on_any_screen(
    browser: Browser, tmp_path: Path, screenshots: Path, viewport: dict[str, int], lang: str
) -> None:
    """Each screen at one width, light and dark (the dark scheme for its colours, all it
    changes). The scheme is switched on the page that shows the screen (emulate_media):
    only the style sheets read it, and under reduced motion they change at once, so one
    visit (and one hand) serves both schemes. The seats the test does not look at play
    over the socket, without a browser."""
    found: dict[str, list[str]] = {}
    width = viewport["width"]
    locale = LOCALES[lang]

    def check(page: Page, screen: str, shot: str | None = None, full_page: bool = True) -> None:
        """axe on the screen in each scheme; ``shot``: the screenshot's name, per scheme.
        And its words: all from the catalogue (or the document) of its language, and none
        Polish (the rules' and terms' documents aside, which are translated on their
        own)."""
        if screen not in ("rules", "terms"):
            found[f"{screen}-words"] = polish_left(page, lang)
        found[f"{screen}-catalogue"] = outside_catalogue(page, lang, also=NICKS)
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            found[f"{screen}-{scheme}"] = violations(page, colours_only=scheme == "dark")
            if shot is not None:
                path = screenshots / f"{shot}-{width}-{lang}-{scheme}.png"
                page.screenshot(path=path, full_page=full_page)

    with live_server(tmp_path, hand_pause_seconds=600) as server:
        # Reduced motion: a card caught halfway through its 0.2 s flight is not a finding.
        context = browser.new_context(
            viewport=viewport,  # type: ignore[arg-type]
            locale=locale,
            reduced_motion="reduce",
        )
        page = new_page(context, locale)
        pages_by_path = (
            ("/", "home"),
            ("/zasady", "rules"),
            ("/regulamin", "terms"),
            ("/kontakt", "contact"),  # not configured here; the form: tests/web/test_contact.py
        )
        for path, name in pages_by_path:
            page.goto(server.base + path)
            page.wait_for_load_state("networkidle")
            check(page, name, name)
        page.goto(server.base + "/")
        code = create_game(page, NICKS[0], 3)
        check(page, "waiting")
        others = socket_seats(server, code, NICKS[1:])
        hand(page).get_by_role("button").first.wait_for()
        check(page, "bidding", "table")
        seats = [page, *others]
        make_moves(seats, 6)
        check(page, "play")
        play_until(seats, summary_shown(page))
        check(page, "summary", "summary")
        if page.locator("#tab-chat").is_visible():  # a narrow screen: the drawer
            for panel in ("scores", "log", "chat"):
                page.locator(f"#tab-{panel}").click()
                check(page, f"drawer-{panel}", f"drawer-{panel}", full_page=False)
            page.get_by_role("button", name=say(page, "table.drawer.close")).click()
        watcher_context = browser.new_context(
            viewport=viewport,  # type: ignore[arg-type]
            locale=locale,
            reduced_motion="reduce",
        )
        watcher = new_page(watcher_context, locale)
        watcher.goto(f"{server.base}/g/{code}")
        watcher.get_by_text(say(watcher, "table.spectator")).wait_for()
        check(watcher, "spectator")
        for seat in others:
            seat.close()
        for opened in (context, watcher.context):
            opened.close()
    assert {screen: v for screen, v in found.items() if v} == {}


# The home page and the table in Ukrainian, the contact page in English: their longer
# words reflow too.
REFLOWS = [
    ("/", "uk"),
    ("/zasady", "pl"),
    ("/regulamin", "pl"),
    ("/kontakt", "en"),
    ("table", "uk"),
]


@pytest.mark.parametrize(("path", "lang"), REFLOWS, ids=[path for path, _ in REFLOWS])
def test_reflow_at_320_px_with_text_at_200_percent(
    browser: Browser, tmp_path: Path, path: str, lang: str
) -> None:
    with live_server(tmp_path) as server:
        if path == "table":
            code, _ = server.full_table(3)
            path = f"/g/{code}"  # a spectator's table, mid-bidding
        context = browser.new_context(
            viewport={"width": 320, "height": 640},  # type: ignore[arg-type]
            bypass_csp=True,
            locale=LOCALES[lang],
        )
        page = context.new_page()
        page.goto(server.base + path)
        page.wait_for_load_state("networkidle")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.add_style_tag(content="html { font-size: 200% !important; }")
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
        context.close()
