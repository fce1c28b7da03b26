"""The page shows the rules the server sends and restates none: who sits out, the mus
bid, marriage values, how many cards to discard, the move times; and its chat holds no
more lines than the server keeps."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.server.harness import STRONG_DECK, live_server

from .ui import (
    DESKTOP,
    PHONE,
    click_card,
    controls,
    create_game,
    hand,
    open_player,
    play_until,
    seat_page,
)


def viewport(seat: int) -> dict[str, int]:
    """Odd seats on a phone, even ones on a desktop: both layouts in one game."""
    return PHONE if seat % 2 else DESKTOP


def test_r27_the_move_time_choice_comes_from_the_server(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        with server.http() as http:
            site = http.get("/api/site").json()
        assert site["move_seconds"] == {"public": [60], "private": [60, 120, 300]}
        assert site["short_game"] == {"target": 500, "barrel": 300}
        page = open_player(browser, f"{server.base}/")
        select = page.get_by_label("Czas na ruch")
        expect(select).to_be_enabled()
        expect(page.locator("#short-label")).to_have_text("Krótka gra (do 500)")  # R32
        expect(page.locator("#short-hint")).to_have_text("Beczka od 300 punktów.")
        assert select.locator("option").all_inner_texts() == ["1 minuta", "2 minuty", "5 minut"]
        select.select_option("300")
        page.get_by_label("Gra publiczna").check()
        expect(select).to_have_value("60")
        expect(page.locator("#move-hint")).to_have_text("W grze publicznej zawsze 1 minuta.")
        assert select.locator("option:enabled").all_inner_texts() == ["1 minuta"]
        page.get_by_label("Gra publiczna").uncheck()
        expect(page.locator("#move-hint")).to_have_text("Dłuższy czas tylko w grze prywatnej.")
        select.select_option("120")
        code = create_game(page, "Ala", 3)
        with server.http() as http:
            assert http.get(f"/api/games/{code}").json()["move_seconds"] == 120
        page.context.close()


def test_r7_r10_the_sitting_out_dealer_and_the_mus_bid(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(4)
        watcher = server.client(code)
        hand_view = watcher.view["hand"]
        out, mus = hand_view["sitting_out"], hand_view["mus"]
        assert out == hand_view["dealer"] and hand_view["mus_bid"] == 100
        page = seat_page(browser, server.base, code, out, tokens[out], viewport(out))
        expect(page.locator("#hand-note")).to_have_text("W tym rozdaniu rozdajesz i pauzujesz.")
        expect(page.locator("#me")).to_contain_text("pauzuje")
        expect(page.locator("#seats .seat-out")).to_have_count(0)  # nobody else sits out
        mus_panel = page.locator("#seats > li").filter(has_text=f"Gracz{mus}")
        expect(mus_panel).to_contain_text("na musie 100")
        expect(hand(page)).to_be_hidden()
        page.screenshot(path=screenshots / "table-4p-sitting-out.png")
        watcher.close()
        page.context.close()


def test_r4_r16_meld_values_and_the_discard_step(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    with live_server(tmp_path, deck=STRONG_DECK) as server:
        code, tokens = server.full_table(2)
        pages = [
            seat_page(browser, server.base, code, seat, token, viewport(seat))
            for seat, token in enumerate(tokens)
        ]
        for page in pages:
            expect(page.get_by_role("status").first).to_contain_text(re.compile("ruch", re.I))

        def discarding_page() -> Page | None:
            return next((p for p in pages if "Odłóż karty" in controls(p)[0]), None)

        # the dealer passes, the mus player takes a musik
        play_until(pages, lambda: discarding_page() is not None, limit=30)
        discarding = discarding_page()
        assert discarding is not None
        names = controls(discarding)[1]
        # R4: the mus player holds the heart and spade marriages (STRONG_DECK)
        assert "król kier, meldunek 100" in names and "dama kier, meldunek 100" in names
        assert "król pik, meldunek 40" in names and "as kier" in names
        prompt = discarding.locator("#prompt")
        expect(prompt).to_have_text("Wybierz 2 karty do odłożenia")
        click_card(discarding, "dziewiątka kier")
        expect(prompt).to_have_text("Wybierz jeszcze 1 kartę do odłożenia")
        discarding.get_by_role("button", name="Odłóż karty", exact=True).click()
        expect(discarding.get_by_text("Najpierw wybierz 2 karty do odłożenia.")).to_be_visible()
        discarding.screenshot(path=screenshots / "table-2p-discard.png")
        click_card(discarding, "walet kier")
        expect(prompt).to_have_text("Karty wybrane. Naciśnij „Odłóż karty”.")
        discarding.get_by_role("button", name="Odłóż karty", exact=True).click()
        expect(discarding.locator("#hand-note")).to_contain_text("Odłożone:")
        for page in pages:
            page.context.close()


def test_the_chat_holds_no_more_lines_than_the_server_keeps(
    browser: Browser, tmp_path: Path
) -> None:
    fast = {"chat_per_minute": 100_000, "messages_per_second_per_ip": 100_000}
    with live_server(tmp_path, **fast) as server:
        code, tokens = server.full_table(2)
        page = open_player(browser, f"{server.base}/g/{code}")  # a spectator reads the chat
        log = page.get_by_role("log", name="Czat")
        expect(log).to_contain_text("Nikt jeszcze nic nie napisał.")
        writers = [server.client(code, tokens[0]) for _ in range(5)]
        for block, writer in enumerate(writers):  # 22 lines a socket: within its burst
            for i in range(22 * block, 22 * block + 22):
                writer.send({"type": "chat", "text": f"linia {i}"})
            last = f"linia {22 * block + 21}"
            writer.wait_state(lambda m, last=last: m["chat"][-1:] and m["chat"][-1]["text"] == last)
        lines = log.locator("p")
        expect(lines.last).to_contain_text("linia 109", timeout=20_000)
        expect(lines).to_have_count(100)  # the server keeps the last 100
        expect(lines.first).to_contain_text(re.compile(r": linia 10\s*$"))
        assert "Nikt jeszcze" not in log.inner_text()
        for writer in writers:
            writer.drain()  # read what it was sent, or closing waits for the backlog
            writer.close()
        page.context.close()
