"""Whole hands and games through the page alone, in real Chromium, each seat in its
browser's language (a table of Polish, English and Ukrainian players, each seeing its own)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.harness import STRONG_DECK, TABLE_NICKS, live_server

from .test_accessibility import violations
from .ui import (
    DESKTOP,
    PHONE,
    SocketSeat,
    card_names,
    create_game,
    expect_heading,
    hand,
    join_game,
    lang_of,
    make_moves,
    open_player,
    outside_catalogue,
    play_until,
    polish_left,
    say,
    seat_page,
    summary_shown,
)

NICKS = ["Ala", "Ola", "Ela", "Iza"]
# Each seat's language, by the number of players: one table of all three languages.
LANGS = {3: ("pl", "en", "uk"), 2: ("en", "uk"), 4: ("uk", "en", "pl", "uk")}
# Text wider than its box: a word cut or spilling out (a heading only for screen readers,
# one pixel wide, is no box).
OVERFLOWING = """() => [...document.querySelectorAll('button, th, td, h1, h2, h3, label')]
    .filter((el) => el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1)
    .map((el) => el.id || el.textContent.trim().slice(0, 40))"""


def seat_players(
    browser: Browser, base: str, players: int, langs: tuple[str, ...] = ()
) -> list[Page]:
    """Players on the home page, each in its language (Polish by default), who create and
    join a game by its form; a phone (390 px) at every other seat."""
    langs = langs or ("pl",) * players
    pages = [
        open_player(browser, f"{base}/", PHONE if i % 2 else DESKTOP, lang)
        for i, lang in enumerate(langs)
    ]
    code = create_game(pages[0], NICKS[0], players)
    for page, nick in zip(pages[1:], NICKS[1:], strict=False):
        page.goto(f"{base}/")
        join_game(page, code, nick)
    return pages


def whose_turn(page: Page) -> re.Pattern[str]:
    """The status line's start in the page's language: "Twój ruch: …" or "Ruch: Ala (…)"."""
    starts = [say(page, key, **fill).split("{")[0] for key, fill in TURNS]
    return re.compile("|".join(f"^{re.escape(start)}" for start in starts))


TURNS = (("turn.yours", {"move": "{"}), ("turn.theirs", {"who": "{", "phase": ""}))


@pytest.mark.parametrize("players", [3, 2, 4])
def test_a_whole_hand_to_its_summary(
    browser: Browser, tmp_path: Path, screenshots: Path, players: int
) -> None:
    with live_server(tmp_path, hand_pause_seconds=60) as server:
        pages = seat_players(browser, server.base, players, LANGS[players])
        for page in pages:  # everyone sees the table; in 4-player hands the dealer holds nothing
            expect(page.locator("#turn")).to_have_text(whose_turn(page))
        holding = [page for page in pages if hand(page).get_by_role("button").count() > 0]
        assert len(holding) == min(players, 3)
        pages[0].screenshot(path=screenshots / f"table-{players}p-start.png")
        play_until(pages, summary_shown(pages[0]))
        for page in pages:
            expect_heading(page, say(page, "table.summary.title"))
        pages[0].screenshot(path=screenshots / f"table-{players}p-summary.png", full_page=True)
        for seat, page in enumerate(pages):  # the summary, the scores and the log: its words
            lang = lang_of(page)
            assert polish_left(page, lang) == [], (seat, lang)
            assert outside_catalogue(page, lang, also=NICKS) == [], (seat, lang)
            assert page.evaluate(OVERFLOWING) == [], (seat, lang)
            if seat and lang != "pl" and players < 4:  # the first's is table-…-summary.png
                width = page.viewport_size["width"] if page.viewport_size else 0
                shot = screenshots / f"summary-{players}p-{lang}-{width}.png"
                page.screenshot(path=shot, full_page=True)
        for page in pages:
            page.context.close()


def test_a_game_to_its_end_screen_and_a_rematch(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    # Test-only: one contract from 1000 (the lowest, 100, ends the game), with a deck the
    # mus player wins: the first hand is the last.
    # In Ukrainian and English: the end screen's words, its axe, the rematch's.
    near = (900, 900, 900)
    with live_server(tmp_path, start_scores=near, deck=STRONG_DECK) as server:
        pages = seat_players(browser, server.base, 3, ("uk", "en", "uk"))
        ended = pages[0].get_by_role("heading", name=say(pages[0], "table.end.title"))
        play_until(pages, lambda: ended.count() > 0 and ended.first.is_visible(), limit=180)
        for page in pages:
            expect_heading(page, say(page, "table.end.title"))
        assert violations(pages[0]) == []  # the end screen too
        assert polish_left(pages[1], "en") == []
        assert outside_catalogue(pages[1], "en", also=NICKS) == []
        pages[0].screenshot(path=screenshots / "end-points.png", full_page=True)
        pages[1].get_by_role("button", name=say(pages[1], "table.end.rematch")).click()
        # The rematch deals once every player is back: until then it shows who is.
        ended_code = pages[0].url.rsplit("/", 1)[1]  # the rematch's page names it
        go = say(pages[0], "table.end.rematch.go")
        pages[0].get_by_role("link", name=go).click()
        expect_heading(pages[0], say(pages[0], "table.lobby.title.rematch"))
        seats = pages[0].locator("#lobby-seats")
        expect(seats.locator(".chip-ok")).to_have_count(1)
        expect(seats).to_contain_text(say(pages[0], "table.chip.not_back"))
        expect(hand(pages[0])).to_be_hidden()
        assert polish_left(pages[0], "uk") == []
        assert outside_catalogue(pages[0], "uk", also=[*NICKS, ended_code]) == []
        pages[0].screenshot(path=screenshots / "rematch-waiting.png", full_page=True)
        for page in pages[1:]:
            page.get_by_role("link", name=say(page, "table.end.rematch.go")).click()
        for page in pages:
            expect(hand(page).get_by_role("button").first).to_be_visible()
        assert len({page.url for page in pages}) == 1
        for page in pages:
            page.context.close()


def test_reload_in_the_middle_of_a_hand_and_carry_on(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, hand_pause_seconds=60) as server:
        code, tokens = server.full_table(3)
        page = seat_page(browser, server.base, code, 1, tokens[1], PHONE)
        others = [SocketSeat(server.client(code, tokens[seat])) for seat in (0, 2)]
        seats = [others[0], page, others[1]]  # the seat order
        make_moves(seats, 8)  # into the play phase
        before = card_names(page)
        page.reload()
        expect(hand(page).get_by_role("button").first).to_be_visible()
        assert card_names(page) == before
        play_until(seats, summary_shown(page))
        for seat in others:
            seat.close()
        page.context.close()


def test_a_spectator_sees_the_table_but_no_hand(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, _ = server.full_table(3)
        watcher = open_player(browser, f"{server.base}/g/{code}", lang="en")
        expect(watcher.locator("#spectator")).to_have_text(say(watcher, "table.spectator"))
        expect(watcher.locator("#spectator")).to_be_visible()
        expect(hand(watcher)).to_have_count(0)
        assert polish_left(watcher, "en") == []
        assert outside_catalogue(watcher, "en", also=TABLE_NICKS) == []
        watcher.context.close()


def test_announcements_and_the_games_this_device_holds(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, hand_pause_seconds=60) as server:
        pages = seat_players(browser, server.base, 3)
        log = pages[0].locator("#log")  # "Przebieg gry": in a drawer on a phone
        expect(log).to_contain_text("Komplet graczy. Gra się zaczyna.")
        make_moves(pages, 1)  # somebody passes: everyone is told
        for page in pages:
            expect(page.locator("#log")).to_contain_text(": pas.")
            expect(page.get_by_role("log", name="Zapowiedzi ruchów")).to_contain_text(": pas.")
        code = pages[0].url.rsplit("/", 1)[1]
        pages[0].goto(f"{server.base}/")
        mine = pages[0].get_by_role("region", name="Twoje gry na tym urządzeniu")
        expect(mine.get_by_role("link")).to_have_count(1)
        mine.get_by_role("link").click()
        pages[0].wait_for_url(f"**/g/{code}")
        expect(hand(pages[0]).get_by_role("button").first).to_be_visible()
        for page in pages:
            page.context.close()
