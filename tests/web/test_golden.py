"""Złoty As (V15) and the game without a barrel (V16) at the table, one person against
two computer players: the golden banner, the resign button, the reset after the last
golden hand, the end of a game won past the target; each at phone and desktop width."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.server.harness import live_server

from .test_accessibility import violations
from .ui import DESKTOP, PHONE, click_card, controls, play_until, seat_page

RESIGN = "Zrezygnuj (−240)"
RESET = "Nikt nie ugrał Złotego Asa — gramy od zera."
# Dealt in blocks from the mus player on (7, 7, 7, the musik): the mus player, golden
# declarer for 120 with the musik, holds nines and jacks and cannot make it.
WEAK_MUS = tuple(
    "9S 9C 9D JS JC JD 9H "  # the mus player
    "KH QH AH TH KS QS AS "
    "TS KD QD AD TD KC QC "
    "JH AC TC".split()
)


def shoot(page: Page, folder: Path, name: str) -> None:
    """A screenshot at desktop width and one at phone width (390 px), then back."""
    page.screenshot(path=folder / f"{name}-1280.png", full_page=True)
    page.set_viewport_size(PHONE)
    expect(page.locator("#drawer-tabs")).to_be_visible()  # drawn again for the phone
    page.screenshot(path=folder / f"{name}-390.png", full_page=True)
    page.set_viewport_size(DESKTOP)
    expect(page.locator("#drawer-tabs")).to_be_hidden()


def test_v15_golden_hands_resign_and_the_reset_at_the_table(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    with live_server(
        tmp_path, deck=WEAK_MUS, hand_pause_seconds=1, bot_pause_seconds=0.1
    ) as server:
        created = server.create("Ala", 3, options={"golden_ace": True}, bots=["easy", "easy"])
        page = seat_page(browser, server.base, created["code"], 0, created["token"])
        banner = page.locator("#center .golden-banner")
        expect(banner).to_contain_text("Złoty As: rozdanie 1 z 3 — gra ")
        expect(banner).to_contain_text(", 120 w ciemno")
        expect(page.locator("#log")).to_contain_text("Złoty As: rozdanie 1 z 3")
        shoot(page, screenshots, "golden-banner")
        resigned = False
        deadline = time.monotonic() + 180
        while page.locator("#score-box .golden-reset").count() == 0:
            assert time.monotonic() < deadline, "the golden hands did not end"
            buttons, cards = controls(page)  # one look: the hand may change meanwhile
            if RESIGN in buttons:
                # Ala's own golden hand: her cards, dealt unseen, turned face up.
                expect(banner).to_contain_text("— gra Ala, 120 w ciemno")
                expect(page.locator("#me .chip-golden")).to_have_text("Złoty As, gra za 120")
                expect(page.locator("#hand .card-button.reveal")).to_have_count(10)
                expect(page.locator("#hand-note")).to_contain_text("musik jest już w Twoich")
                assert violations(page) == []
                shoot(page, screenshots, "golden-resign")
                page.emulate_media(reduced_motion="reduce")  # no turning: face up at once
                cover = page.locator("#hand .card-cover").first
                assert cover.evaluate("c => getComputedStyle(c).opacity") == "0"
                page.emulate_media(reduced_motion="no-preference")
                page.get_by_role("button", name=RESIGN).click()
                expect(page.locator("#log")).to_contain_text("Ala rezygnuje ze Złotego Asa.")
                resigned = True
            elif cards:  # an opponent in a golden hand only plays
                click_card(page, cards[0])
            else:
                page.wait_for_timeout(50)
        assert resigned, page.locator("#log").inner_text()  # each is golden declarer once
        sheet = page.locator("#score-box")
        expect(sheet.locator(".golden-reset")).to_have_text(RESET)
        expect(sheet.locator("tbody .role-golden")).to_have_count(3)
        expect(sheet.locator("tbody")).to_contain_text("rezygnacja")
        expect(sheet.locator("tfoot")).to_contain_text("0")
        expect(page.locator("#announcer")).to_contain_text(RESET)  # heard, not only shown
        expect(page.locator("#log")).to_contain_text(RESET)
        # The last golden hand's summary says it too, opened again once the next is dealt.
        expect(banner).to_have_count(0)  # the fourth hand: an ordinary one
        page.locator("#summary-open").click()
        summary = page.locator("#summary")
        expect(summary).to_contain_text(RESET)
        assert violations(page) == []
        shoot(page, screenshots, "golden-reset")
        page.set_viewport_size(PHONE)
        page.locator("#tab-scores").click()
        expect(page.locator("#score-box .golden-reset")).to_be_visible()
        page.screenshot(path=screenshots / "golden-reset-scores-390.png", full_page=True)
        page.context.close()


def test_v16_the_end_says_who_passed_the_target(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    near = (950, 950, 950)  # the first hand's opponents can pass 1000
    with live_server(
        tmp_path, deck=WEAK_MUS, start_scores=near, hand_pause_seconds=1, bot_pause_seconds=0.1
    ) as server:
        created = server.create("Ala", 3, options={"barrel": "off"}, bots=["easy", "easy"])
        page = seat_page(browser, server.base, created["code"], 0, created["token"])
        expect(page.locator("#score-box caption")).to_have_text(
            "Wyniki rozdań, gra do 1000, bez beczki"
        )
        end = page.locator("#end")
        play_until([page], end.is_visible, limit=240)
        text = page.locator("#end-text")
        expect(text).to_contain_text("pkt, gra do 1000.")
        expect(page.locator("#ranking .chip-win")).to_have_count(1)
        expect(page.locator("#end-scores caption")).to_have_text(
            "Wyniki rozdań, gra do 1000, bez beczki"
        )
        expect(page.locator("#end")).not_to_contain_text("beczce")  # nobody on a barrel
        expect(page.locator("#turn")).to_contain_text("gra do 1000")  # the status, heard
        assert violations(page) == []
        shoot(page, screenshots, "v16-end")
        page.context.close()
