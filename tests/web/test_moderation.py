"""Moderation as a player meets it in the browser: warnings, chat refusals, reports, removals,
worded in each player's language (the server's refusals carry a key the page words)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.server.harness import LiveServer, live_server

from .test_accessibility import violations
from .ui import (
    PHONE,
    create_game,
    join_game,
    open_player,
    outside_catalogue,
    polish_left,
    say,
    show_chat,
    show_table,
    take_turn,
)


def tysiac_admin(server: LiveServer, *argv: str) -> str:
    """The operator's real command line, on the server's database."""
    env = {**os.environ, "TYSIAC_DATABASE_URL": server.settings.database_url}
    done = subprocess.run(
        [sys.executable, "-m", "tysiac", "admin", *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def chat_line(page: Page, text: str) -> None:
    show_chat(page)
    page.get_by_label(say(page, "table.chat.message"), exact=True).fill(text)
    page.get_by_label(say(page, "table.chat.message"), exact=True).press("Enter")


def two_players(
    browser: Browser, base: str, langs: tuple[str, str] = ("pl", "pl")
) -> tuple[Page, Page, str]:
    ala = open_player(browser, f"{base}/", lang=langs[0])
    code = create_game(ala, "Ala", 2)
    ola = open_player(browser, f"{base}/", PHONE, langs[1])
    join_game(ola, code, "Ola")
    return ala, ola, code


def test_a_vulgar_nick_is_refused_with_a_warning(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path) as server:  # in English: the refusal and the warning
        page = open_player(browser, f"{server.base}/", lang="en")
        page.get_by_label(say(page, "home.nick"), exact=True).fill("Kurwiszon")
        page.get_by_label(say(page, "home.players.two")).check()
        page.get_by_role("button", name=say(page, "home.create")).click()
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text(say(page, "error.vulgar.nick"))
        expect(alert).to_contain_text(say(page, "moderation.warning.first"))
        assert page.url == f"{server.base}/"
        cookies = {c["name"]: c for c in page.context.cookies()}
        assert cookies["ivoca_did"]["httpOnly"] and cookies["ivoca_did"]["sameSite"] == "Lax"
        page.context.close()


def test_chat_refusals_then_the_chat_turns_off_and_a_report(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    # Ala's page is English, Ola's (a phone) Ukrainian: each is told in its own language.
    with live_server(tmp_path) as server:
        ala, ola, code = two_players(browser, server.base, ("en", "uk"))
        chat_line(ala, "dobra karta")
        show_chat(ola)  # a phone: the chat is a drawer
        chat = ola.get_by_role("log", name=say(ola, "table.chat.title"))
        expect(chat).to_contain_text("Ala: dobra karta")

        # Ola reports Ala's line; the button says it was done.
        ola.get_by_role("button", name=say(ola, "table.chat.report.label", nick="Ala")).click()
        done = say(ola, "table.chat.reported.label", nick="Ala")
        expect(ola.get_by_role("button", name=done)).to_be_disabled()
        expect(ola.get_by_role("log", name=say(ola, "table.announcer"))).to_contain_text(
            say(ola, "table.chat.reported.note")
        )
        report = say(ala, "table.chat.report.label", nick="Ala")
        expect(ala.get_by_role("button", name=report)).to_have_count(0)
        assert violations(ola) == []
        ola.locator("#chat").screenshot(path=screenshots / "chat-reported-390.png")
        log = tysiac_admin(server, "log")
        assert "Ala (reported by Ola)" in log and "'dobra karta'" in log

        chat_line(ala, "ty chuju")
        refused = f"{say(ala, 'error.vulgar.chat')} {say(ala, 'moderation.warning.first')}"
        expect(ala.locator("#chat-error")).to_have_text(refused)
        chat_line(ola, "spierdalaj")
        expect(ola.locator("#chat-error")).to_contain_text(say(ola, "error.vulgar.chat"))
        for page in (ala, ola):
            expect(page.locator("#chat-note")).to_have_text(say(page, "error.chat_closed.closed"))
            expect(page.get_by_label(say(page, "table.chat.message"), exact=True)).to_be_hidden()
        expect(ala.get_by_role("log", name=say(ala, "table.announcer"))).to_contain_text(
            say(ala, "log.chat_rejected")
        )
        assert violations(ala) == []
        ala.locator("#chat").screenshot(path=screenshots / "chat-off-1280.png")
        for page, lang in ((ala, "en"), (ola, "uk")):
            assert "chuju" not in page.content() and "spierdalaj" not in page.content()
            assert polish_left(page, lang) == [], lang
            assert outside_catalogue(page, lang, also=("Ala", "Ola", "dobra karta")) == [], lang
        assert code
        ala.context.close()
        ola.context.close()


def test_a_removed_game_tells_its_players_and_new_visitors_why(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path) as server:
        ala, ola, code = two_players(browser, server.base, ("pl", "uk"))
        expect(ala.get_by_role("toolbar", name="Twoje karty")).to_be_visible()
        reason = "obraźliwa nazwa gry"  # the operator's own words, in any page's language
        tysiac_admin(server, "delete", code, "--reason", reason)
        visitor = open_player(browser, f"{server.base}/g/{code}", lang="en")
        for page in (ala, ola, visitor):
            why = say(page, "error.deleted.removed", reason=reason)
            expect(page.get_by_role("alert")).to_have_text(why)
        for page in (ala, ola, visitor):
            page.context.close()


def test_public_chat_opens_after_ones_own_move(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, hand_pause_seconds=60) as server:
        ala = open_player(browser, f"{server.base}/")
        ala.get_by_label("Gra publiczna").check()
        ala.get_by_label("Włącz czat").check()
        code = create_game(ala, "Ala", 2)
        ola = open_player(browser, f"{server.base}/", PHONE)
        join_game(ola, code, "Ola")
        wait = "W grze publicznej możesz pisać po swoim pierwszym ruchu."
        for page in (ala, ola):
            expect(page.locator("#chat-note")).to_have_text(wait)
            expect(page.get_by_label("Wiadomość", exact=True)).to_be_hidden()
        mover = next(page for page in (ala, ola) if take_turn(page))
        other = ola if mover is ala else ala
        show_chat(mover)
        expect(mover.get_by_label("Wiadomość", exact=True)).to_be_visible()
        expect(other.locator("#chat-note")).to_have_text(wait)
        chat_line(mover, "powodzenia")
        show_chat(other)
        expect(other.get_by_role("log", name="Czat")).to_contain_text("powodzenia")
        show_table(other)
        for page in (ala, ola):
            page.context.close()
