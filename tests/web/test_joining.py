"""Joining as a player expects: errors beside the form, one seat per browser, the invite;
in Ukrainian and English as in Polish (the server's refusals worded by the page)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.server.harness import live_server

from .ui import SMALL_PHONE, create_game, open_player, outside_catalogue, polish_left, say

NEAR = """([a, b]) => {
    const r = (id) => document.getElementById(id).getBoundingClientRect();
    return Math.abs(r(a).top - r(b).bottom);
}"""


def focused_id(page: Page) -> str:
    return str(page.evaluate("() => document.activeElement?.id ?? ''"))


def test_join_errors_stand_beside_the_code_and_take_the_focus(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path) as server:  # in Ukrainian
        page = open_player(browser, f"{server.base}/", SMALL_PHONE, "uk")
        nick = page.get_by_label(say(page, "home.nick"), exact=True)
        code_field = page.get_by_label(say(page, "home.join.code"))
        join = page.get_by_role("button", name=say(page, "home.join.submit"), exact=True)
        nick.fill("Ola")
        code_field.fill("ZZZZZZ")
        join.click()
        error = page.locator("#join-code-error")
        expect(error).to_have_text(say(page, "error.unknown_game"))
        expect(error).to_be_in_viewport()
        assert focused_id(page) == "join-code"
        assert page.evaluate(NEAR, ["join-code-error", "join-code"]) < 80
        expect(code_field).to_have_attribute("aria-invalid", "true")
        code, _ = server.full_table(2)
        code_field.fill(code)
        join.click()
        expect(error).to_have_text(say(page, "error.full"))
        expect(error).to_be_in_viewport()
        # A nick refused goes under the nick, which takes the focus.
        nick.fill("")
        join.click()
        missing = say(page, "home.nick.missing", limit="{").split("{")[0]
        expect(page.locator("#nick-error")).to_have_text(re.compile(f"^{re.escape(missing)}"))
        assert focused_id(page) == "nick"
        expect(error).to_have_text("")
        assert polish_left(page, "uk") == []
        assert outside_catalogue(page, "uk") == []
        page.context.close()


def test_a_browser_holding_a_seat_is_sent_back_to_it(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        page = open_player(browser, f"{server.base}/")
        code = create_game(page, "Marek", 3)
        key = f"tysiac-online:{code}"
        held = page.evaluate("(k) => localStorage.getItem(k)", key)
        page.goto(f"{server.base}/")
        page.get_by_label("Nick", exact=True).fill("Marek2")
        page.get_by_label("Kod gry").fill(code)
        page.get_by_role("button", name="Dołącz do gry", exact=True).click()
        page.wait_for_url(re.compile(rf"/g/{code}$"))
        expect(page.locator("#notice")).to_have_text("Już siedzisz przy tym stole jako Marek.")
        assert page.evaluate("(k) => localStorage.getItem(k)", key) == held  # never overwritten
        with server.http() as http:
            assert http.get(f"/api/games/{code}").json()["nicks"] == ["Marek", None, None]
        expect(page.locator("#lobby-seats")).to_contain_text("Marek (Ty)")
        page.context.close()


def test_the_invited_player_sees_the_join_form_first(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    with live_server(tmp_path) as server:  # in English, to a table named in Polish
        created = server.create("Ala", 3, name="Piątkowy stolik", short=True)
        page = open_player(browser, f"{server.base}/g/{created['code']}", SMALL_PHONE, "en")
        title = say(page, "table.lobby.title.named", name="Piątkowy stolik")
        expect(page.get_by_role("heading", name=title)).to_be_visible()
        facts = f"{say(page, 'table.lobby.players', players=3)} · {say(page, 'table.lobby.short')}"
        expect(page.locator("#lobby-options")).to_contain_text(facts)
        form = page.get_by_role("button", name=say(page, "table.join.submit"))
        expect(form).to_be_in_viewport()
        copy = page.get_by_role("button", name=say(page, "table.share.copy"))
        expect(copy).to_be_hidden()  # the creator's
        page.screenshot(path=screenshots / "invited-375-en.png", full_page=True)
        nick = page.get_by_label(say(page, "table.join.nick"))
        nick.fill("Ala")
        form.click()
        expect(page.locator("#join-error")).to_have_text(say(page, "error.nick_taken"))
        assert focused_id(page) == "join-nick"
        nick.fill("Ola")
        nick.press("Enter")
        expect(copy).to_be_visible()
        page.context.close()


def test_enter_in_the_nick_field_creates_a_game(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        page = open_player(browser, f"{server.base}/")
        page.get_by_label("Nick", exact=True).fill("Ala")
        page.get_by_label("Nick", exact=True).press("Enter")
        page.wait_for_url(re.compile(r"/g/[A-Z0-9]{6}$"))
        code = page.url.rsplit("/", 1)[1]
        stored = json.loads(
            page.evaluate("(k) => localStorage.getItem(k)", f"tysiac-online:{code}")
        )
        assert stored["seat"] == 0
        page.context.close()


def test_an_unknown_code_shows_one_message_and_the_way_home(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    with live_server(tmp_path) as server:  # in Ukrainian
        page = open_player(browser, f"{server.base}/g/ZZZZZZ", SMALL_PHONE, "uk")
        expect(page.get_by_role("heading", name=say(page, "table.missing.title"))).to_be_visible()
        missing = say(page, "table.missing", code="ZZZZZZ")
        expect(page.locator("#missing-text")).to_have_text(missing)
        for other in ("#conn", "#error", "#turn"):
            expect(page.locator(other)).to_have_text("")
        page.screenshot(path=screenshots / "unknown-code-375-uk.png", full_page=True)
        page.get_by_role("link", name=say(page, "table.missing.home")).click()
        page.wait_for_url(f"{server.base}/")
        page.context.close()
