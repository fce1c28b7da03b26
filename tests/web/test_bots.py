"""Computer players through the pages, in real Chromium: alone against bots, the waiting
room's add and remove, axe on a waiting room with bots."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.server.harness import live_server

from .test_accessibility import violations
from .ui import (
    DESKTOP,
    PHONE,
    create_game,
    expect_heading,
    join_game,
    open_player,
    play_until,
    summary_shown,
)


def test_a_hand_alone_against_two_bots_to_its_summary(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    with live_server(tmp_path, hand_pause_seconds=60, bot_pause_seconds=0.1) as server:
        page = open_player(browser, f"{server.base}/", DESKTOP)
        page.get_by_label("Nick", exact=True).fill("Ala")
        page.get_by_label("3 graczy").check()
        page.get_by_label("Poziom komputera").select_option("strong")
        page.get_by_role("button", name="Zagraj z komputerem").click()
        page.wait_for_url(re.compile(r"/g/[A-Z0-9]{6}$"))
        seats = page.locator("#seats")
        expect(seats).to_contain_text("Komputer 1")
        expect(seats).to_contain_text("komputer (mocny)")
        play_until([page], summary_shown(page))
        expect_heading(page, "Podsumowanie rozdania")
        # The move log (and so the announcer, which reads the same lines) names the level.
        expect(page.locator("#log")).to_contain_text("Komputer 1 (mocny)")
        page.screenshot(path=screenshots / "bots-summary.png", full_page=True)
        page.context.close()


def test_the_waiting_room_adds_and_removes_a_bot(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    with live_server(tmp_path, hand_pause_seconds=60) as server:
        page = open_player(browser, f"{server.base}/", DESKTOP)
        page.get_by_label("Nick", exact=True).fill("Ala")
        page.get_by_label("4 graczy").check()
        page.get_by_role("button", name="Załóż grę").click()
        page.wait_for_url(re.compile(r"/g/[A-Z0-9]{6}$"))
        seats = page.locator("#lobby-seats")
        page.get_by_label("Poziom komputera").select_option("easy")
        page.get_by_role("button", name="Dodaj komputer").click()
        expect(seats).to_contain_text("komputer (łatwy)")
        page.get_by_label("Poziom komputera").select_option("medium")
        page.get_by_role("button", name="Dodaj komputer").click()
        expect(seats).to_contain_text("komputer (średni)")
        assert violations(page) == []
        page.screenshot(path=screenshots / "bots-waiting-room.png", full_page=True)
        page.get_by_role("button", name="Usuń Komputer 1").click()
        expect(seats).not_to_contain_text("komputer (łatwy)")
        expect(seats).to_contain_text("wolne miejsce")
        page.context.close()


def test_two_people_and_a_strong_bot_play_a_hand_in_the_browser(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    """A mixed table from the pages alone: the host seats a strong bot beside a friend."""
    with live_server(tmp_path, hand_pause_seconds=60, bot_pause_seconds=0.1) as server:
        host = open_player(browser, f"{server.base}/", DESKTOP)
        code = create_game(host, "Ala", 3)
        friend = open_player(browser, f"{server.base}/", PHONE)
        join_game(friend, code, "Ola")
        host.get_by_label("Poziom komputera").select_option("strong")
        host.get_by_role("button", name="Dodaj komputer").click()
        for page in (host, friend):
            expect(page.locator("#seats")).to_contain_text("komputer (mocny)")
        play_until([host, friend], summary_shown(friend))
        expect_heading(friend, "Podsumowanie rozdania")
        friend.screenshot(path=screenshots / "bots-mixed-phone.png")
        for page in (host, friend):
            page.context.close()
