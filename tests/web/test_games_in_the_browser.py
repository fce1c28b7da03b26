"""Whole hands and games through the page alone, in real Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.harness import STRONG_DECK, live_server

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
    make_moves,
    open_player,
    play_until,
    seat_page,
    summary_shown,
)

NICKS = ["Ala", "Ola", "Ela", "Iza"]


def seat_players(browser: Browser, base: str, players: int) -> list[Page]:
    pages = [open_player(browser, f"{base}/", PHONE if i % 2 else DESKTOP) for i in range(players)]
    code = create_game(pages[0], NICKS[0], players)
    for page, nick in zip(pages[1:], NICKS[1:], strict=False):
        page.goto(f"{base}/")
        join_game(page, code, nick)
    return pages


@pytest.mark.parametrize("players", [3, 2, 4])
def test_a_whole_hand_to_its_summary(
    browser: Browser, tmp_path: Path, screenshots: Path, players: int
) -> None:
    with live_server(tmp_path, hand_pause_seconds=60) as server:
        pages = seat_players(browser, server.base, players)
        for page in pages:  # everyone sees the table; in 4-player hands the dealer holds nothing
            expect(page.get_by_role("status").first).to_contain_text(re.compile("ruch", re.I))
        holding = [page for page in pages if hand(page).get_by_role("button").count() > 0]
        assert len(holding) == min(players, 3)
        pages[0].screenshot(path=screenshots / f"table-{players}p-start.png")
        play_until(pages, summary_shown(pages[0]))
        for page in pages:
            expect_heading(page, "Podsumowanie rozdania")
        pages[0].screenshot(path=screenshots / f"table-{players}p-summary.png", full_page=True)
        for page in pages:
            page.context.close()


def test_a_game_to_its_end_screen_and_a_rematch(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    # Test-only: one contract from 1000 (the lowest, 100, ends the game), with a deck the
    # mus player wins: the first hand is the last.
    near = (900, 900, 900)
    with live_server(tmp_path, start_scores=near, deck=STRONG_DECK) as server:
        pages = seat_players(browser, server.base, 3)
        ended = pages[0].get_by_role("heading", name="Koniec gry")
        play_until(pages, lambda: ended.count() > 0 and ended.first.is_visible(), limit=180)
        for page in pages:
            expect_heading(page, "Koniec gry")
        assert violations(pages[0]) == []  # the end screen too
        pages[0].screenshot(path=screenshots / "end-points.png", full_page=True)
        pages[1].get_by_role("button", name="Rewanż").click()
        # The rematch deals once every player is back: until then it shows who is.
        pages[0].get_by_role("link", name="Przejdź do rewanżu").click()
        expect_heading(pages[0], "Rewanż: czekamy, aż wrócą gracze")
        seats = pages[0].locator("#lobby-seats")
        expect(seats.locator(".chip-ok")).to_have_count(1)
        expect(seats).to_contain_text("jeszcze poza stołem")
        expect(hand(pages[0])).to_be_hidden()
        pages[0].screenshot(path=screenshots / "rematch-waiting.png", full_page=True)
        for page in pages[1:]:
            page.get_by_role("link", name="Przejdź do rewanżu").click()
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
        watcher = open_player(browser, f"{server.base}/g/{code}")
        expect(watcher.get_by_text("Oglądasz grę jako widz")).to_be_visible()
        expect(hand(watcher)).to_have_count(0)
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
