"""Table options (V1-V14) in the browser: chosen on the home page, shown at the table."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.server.harness import live_server

from .test_accessibility import violations
from .ui import SMALL_PHONE, create_game, open_player


def test_a_preset_is_sent_and_shown_at_the_table(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    with live_server(tmp_path) as server:
        page = open_player(browser, f"{server.base}/")
        expect(page.get_by_label("Zwykłe")).to_be_checked()  # the default set, preselected
        page.get_by_label("Z bombą i błotami").check()
        code = create_game(page, "Ala", 3)
        with server.http() as http:
            options = http.get(f"/api/games/{code}").json()["options"]
        assert (options["bomb"], options["bolts"], options["dump_555"]) == ("penalty", True, True)
        assert options["bid_step"] == 10  # the rest stays as usual
        expect(page.locator("#lobby-options")).to_contain_text("Zasady: bomba (rozpisanie) za karę")
        page.goto(f"{server.base}/")  # the last choice is remembered
        expect(page.get_by_label("Z bombą i błotami")).to_be_checked()
        page.context.close()


def test_custom_options_one_by_one(browser: Browser, tmp_path: Path, screenshots: Path) -> None:
    with live_server(tmp_path) as server:
        page = open_player(browser, f"{server.base}/", SMALL_PHONE)
        step = page.get_by_label("Krok licytacji (V1)")
        expect(step).to_be_hidden()
        page.get_by_label("Własne").check()
        expect(step).to_be_visible()
        expect(page.get_by_label("Gra w ciemno (V14)")).to_be_visible()
        assert violations(page) == []
        page.screenshot(path=screenshots / "home-375-house-rules.png", full_page=True)
        step.select_option("5")
        page.get_by_label("Beczka (V10)").select_option("880")
        code = create_game(page, "Ola", 4)
        with server.http() as http:
            options = http.get(f"/api/games/{code}").json()["options"]
        assert (options["bid_step"], options["barrel"], options["bomb"]) == (5, "880", "off")
        for nick in ("Ela", "Iza", "Ula"):
            server.join(code, nick)
        expect(page.get_by_role("toolbar", name="Twoje karty")).to_be_attached()
        page.locator("#tab-scores").click()
        rules_line = page.locator("#rules-line")
        expect(rules_line).to_have_text("Zasady: krok licytacji co 5, beczka 880, trzy próby")
        rules_line.click()  # the details, one tap away
        expect(page.locator("#rules-list")).to_contain_text("Krok licytacji: co 5.")
        assert violations(page) == []
        page.context.close()


def test_the_rules_page_describes_every_option(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        page = open_player(browser, f"{server.base}/zasady#zasady-stolu")
        for number in range(1, 15):
            expect(page.locator(f"#v{number}")).to_contain_text(f"(V{number})")
        page.context.close()
