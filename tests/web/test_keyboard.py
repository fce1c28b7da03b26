"""One player plays a whole hand with the keyboard alone (the others play over the socket)."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.server.harness import live_server

from .ui import (
    controls,
    create_game,
    hand,
    lowest_contract,
    open_player,
    socket_seats,
    summary_shown,
    visible,
)

FOCUSED_NAME = """() => {
    const el = document.activeElement;
    return el ? (el.getAttribute('aria-label') || el.textContent || '').trim() : '';
}"""
IN_HAND = """() => !!document.activeElement?.closest('[role=toolbar][aria-label="Twoje karty"]')"""


def tab_to(page: Page, name: str, limit: int = 80) -> None:
    """Press Tab until the named control has focus, then stop there."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_NAME) == name:
            return
    raise AssertionError(f"Tab never reached {name!r}")


def keyboard_turn(page: Page) -> bool:
    """The same choices as a mouse player, made with Tab, arrows, Enter and Space."""
    for name in ("Pas", "Pierwszy musik", lowest_contract(controls(page)[0])):
        if name and visible(page, name):
            tab_to(page, name)
            page.keyboard.press("Enter")
            return True
    giving = visible(page, "Oddaj karty") or visible(page, "Odłóż karty")
    buttons = hand(page).get_by_role("button")
    # Read at once: the hand may redraw with a card fewer between two reads of one each.
    disabled = buttons.evaluate_all("els => els.map(e => e.getAttribute('aria-disabled'))")
    cards = [buttons.nth(i) for i, flag in enumerate(disabled) if flag != "true"]
    if not cards or visible(page, "Pas"):
        return False
    wanted = cards[: 2 if giving else 1]
    for card in wanted:
        name = card.get_attribute("aria-label") or card.inner_text()
        if not page.evaluate(IN_HAND):
            for _ in range(80):
                page.keyboard.press("Tab")
                if page.evaluate(IN_HAND):
                    break
        page.keyboard.press("Home")
        for _ in range(12):
            if page.evaluate(FOCUSED_NAME) == name:
                break
            page.keyboard.press("ArrowRight")
        assert page.evaluate(FOCUSED_NAME) == name
        page.keyboard.press("Enter" if len(wanted) == 1 else "Space")
    if giving:
        tab_to(page, "Oddaj karty" if visible(page, "Oddaj karty") else "Odłóż karty")
        page.keyboard.press("Enter")
    return True


def test_a_whole_hand_by_keyboard(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, hand_pause_seconds=60) as server:
        keyboard_player = open_player(browser, f"{server.base}/")
        code = create_game(keyboard_player, "Klawiatura", 3)
        others = socket_seats(server, code, ["Mysz", "Kot"])
        done = summary_shown(keyboard_player)
        deadline = time.monotonic() + 180
        keyboard_moves = 0
        while not done():
            assert time.monotonic() < deadline
            keyboard_moves += keyboard_turn(keyboard_player)
            for seat in others:
                seat.take_turn()
            keyboard_player.wait_for_timeout(30)
        assert keyboard_moves >= 8  # at least its eight cards, all by keyboard
        for seat in others:
            seat.close()
        keyboard_player.context.close()
