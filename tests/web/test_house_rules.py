"""Table options (V1-V16) in the browser: chosen on the home page (a preset, then any
option), shown at the table and on the rules page."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.server.harness import live_server
from tysiac import catalogue
from tysiac.rules.options import (
    CHOICES,
    DEFAULT,
    PRESETS,
    option_id,
    options_to_json,
    value_id,
    value_key,
)

from .test_accessibility import violations
from .ui import PHONE, SMALL_PHONE, controls, create_game, open_player, seat_page


def test_a_preset_fills_the_options_and_an_edit_is_sent_with_them(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    with live_server(tmp_path) as server:
        page = open_player(browser, f"{server.base}/", PHONE)
        expect(page.get_by_label("Zwykłe")).to_be_checked()  # the standard rules, preselected
        east = catalogue.text("preset.east.name")
        page.get_by_label(east).check()
        page.get_by_text("Wszystkie zasady (V1–V16)").click()  # every option, one tap away
        step = page.get_by_label("Krok licytacji (V1)")
        expect(step).to_have_value("5")  # the preset filled the controls
        expect(page.get_by_label("Złoty As (V15)")).to_have_value("true")
        expect(page.get_by_label("Beczka (V10)")).to_have_value("880")
        page.get_by_label("Zaokrąglanie (V5)").select_option("5")  # one change of the player's
        expect(page.get_by_label("Własne")).to_be_checked()  # no longer the preset as it is
        edited = page.locator("#options-edited")
        expect(edited).to_have_text(f"Na podstawie zestawu „{east}”, zmienione: Zaokrąglanie (V5).")
        assert violations(page) == []
        page.locator(".house-rules").screenshot(path=screenshots / "home-390-preset-edited.png")
        code = create_game(page, "Ala", 3)
        with server.http() as http:
            options = http.get(f"/api/games/{code}").json()["options"]
        chosen = PRESETS["east"]
        assert chosen is not None
        assert options == {**options_to_json(DEFAULT), **chosen, "rounding": "5"}
        page.goto(f"{server.base}/")  # the last choice is remembered, edit included
        expect(page.get_by_label("Własne")).to_be_checked()
        expect(page.get_by_label("Zaokrąglanie (V5)")).to_have_value("5")
        expect(edited).to_contain_text(east)
        page.get_by_label("Jak na gracz.pl").check()  # another preset: all its values, anew
        expect(page.get_by_label("Zaokrąglanie (V5)")).to_have_value("10")
        expect(page.get_by_label("Beczka (V10)")).to_have_value("off")
        expect(step).to_have_value("10")
        expect(edited).to_be_hidden()
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
        expect(page.get_by_role("region", name="Stół")).to_be_visible()  # the game is on
        page.locator("#tab-scores").click()
        rules_line = page.locator("#rules-line")
        expect(rules_line).to_have_text("Zasady: krok licytacji co 5, beczka 880, trzy próby")
        rules_line.click()  # the details, one tap away
        expect(page.locator("#rules-list")).to_contain_text("Krok licytacji: co 5.")
        assert violations(page) == []
        page.context.close()


def test_the_rules_page_describes_every_option_and_every_preset(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    with live_server(tmp_path) as server:
        page = open_player(browser, f"{server.base}/zasady#zestawy", PHONE)
        for key in CHOICES:  # each named once, by the catalogue
            number = option_id(key)
            name = catalogue.text(f"option.{key}.name")
            expect(page.locator(f"#{number.lower()}")).to_have_text(f"{name} ({number})")
        off = catalogue.text("option.barrel.value.off")
        expect(page.locator("#v16")).to_have_text(f"Beczka: {off} (V16)")
        listed = page.locator("#preset-list")
        for key, chosen in PRESETS.items():
            if chosen is None:  # "Własne" is no preset of a table
                expect(listed).not_to_contain_text(catalogue.text(f"preset.{key}.name"))
                continue
            heading = page.locator(f"#zestaw-{key}")
            expect(heading).to_have_text(catalogue.text(f"preset.{key}.name"))
            expect(heading.locator("xpath=following-sibling::p[1]")).to_have_text(
                catalogue.text(f"preset.{key}.where")
            )
            # Every option it sets, by its name, id and value, a link to its rule.
            items = page.get_by_role("list", name=catalogue.text(f"preset.{key}.name"), exact=True)
            shown = [
                f"{catalogue.text(f'option.{option}.name')} ({value_id(option, value)}): "
                + catalogue.text(value_key(option, value))
                for option, value in chosen.items()
            ]
            if shown:
                expect(items.get_by_role("link")).to_have_text(sorted(shown, key=order))
            else:
                expect(heading.locator("xpath=following-sibling::p[2]")).to_have_text(
                    catalogue.text("page.rules.preset.none")
                )
        expect(page.locator("a[href='#v16']")).to_have_count(1)  # gracz.pl's barrel
        assert violations(page) == []
        page.locator("#preset-list").screenshot(path=screenshots / "rules-390-presets.png")
        page.context.close()


def order(item: str) -> int:
    """A listed option's place: the form's order (V1 … V15, V16 the barrel's place)."""
    keys = list(CHOICES)
    names = [catalogue.text(f"option.{key}.name") for key in keys]
    return next(i for i, name in enumerate(names) if item.startswith(f"{name} ("))


# Dealt in blocks from the mus player on (3 players: 7, 7, 7, then the musik): the mus
# player holds two marriages, the next player (the first to bid) a hand of 10 points.
WEAK_NEXT = tuple(
    "KH QH AH TH AS TS QS "  # the mus player
    "9S 9C 9D JS JC JD KS "  # the first bidder: 10 card points, a redeal may be asked (V13)
    "9H JH AD TD KD QD AC "
    "TC KC QC".split()
)


def table_pages(
    browser: Browser, server: Any, players: int, options: dict[str, Any]
) -> tuple[str, list[Page]]:
    code, tokens = server.full_table(players, options=options)
    return code, [seat_page(browser, server.base, code, s, t) for s, t in enumerate(tokens)]


def page_with(pages: list[Page], button: str, timeout: float = 15) -> Page:
    deadline = time.monotonic() + timeout
    while True:
        for page in pages:
            if button in controls(page)[0]:
                return page
        assert time.monotonic() < deadline, f"nobody was offered {button!r}"
        pages[0].wait_for_timeout(50)


def test_v7_a_penalty_bomb_through_the_table(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, deck=WEAK_NEXT, hand_pause_seconds=60) as server:
        _, pages = table_pages(browser, server, 3, {"bomb": "penalty"})
        for _ in range(2):  # both others pass: the mus player plays for 100
            page_with(pages, "Pas").get_by_role("button", name="Pas", exact=True).click()
            pages[0].wait_for_timeout(200)
        declarer = page_with(pages, "Bomba: nie gram")
        declarer.get_by_role("button", name="Bomba: nie gram").click()
        for page in pages:
            expect(page.locator("#summary")).to_contain_text("Bomba:")
            expect(page.locator("#log")).to_contain_text("rzuca bombę")
        scores = pages[0].locator("#score-box tfoot")
        expect(scores).to_contain_text("−100")  # the declarer: −(winning bid)
        expect(scores).to_contain_text("50")  # each opponent: half of it
        expect(pages[0].locator("#score-box tbody")).to_contain_text("bomba")
        assert violations(declarer) == []
        for page in pages:
            page.context.close()


def test_v13_a_redeal_for_a_weak_hand(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, deck=WEAK_NEXT, hand_pause_seconds=1) as server:
        code, pages = table_pages(browser, server, 3, {"redeal": True})
        weak = page_with(pages, "Nowe rozdanie (słabe karty)")
        assert "Pas" in controls(weak)[0]  # on their own turn, before passing
        weak.get_by_role("button", name="Nowe rozdanie (słabe karty)").click()
        for page in pages:
            expect(page.locator("#log")).to_contain_text("prosi o nowe rozdanie")
        watcher = server.client(code)
        # A second deal before the watcher came (a second after the redeal) is in its first state.
        redealt = watcher.state
        if redealt["view"]["hand_number"] != 2:
            redealt = watcher.wait_state(lambda s: s["view"]["hand_number"] == 2)
        view = redealt["view"]
        assert view["results"][0]["end"] == "redeal" and view["scores"] == [0, 0, 0]
        watcher.close()
        for page in pages:
            page.context.close()


def test_v14_a_blind_hand_through_the_table(browser: Browser, tmp_path: Path) -> None:
    start = (100, 100, 100)  # a blind game needs a score above 0
    with live_server(tmp_path, start_scores=start, hand_pause_seconds=60) as server:
        _, pages = table_pages(browser, server, 3, {"blind": True})
        blind = page_with(pages, "Graj w ciemno (za 120)")
        assert "Zobacz karty" in controls(blind)[0]
        expect(blind.get_by_role("toolbar", name="Twoje karty")).to_be_hidden()  # face down
        expect(blind.locator("#face-down [role=img]")).to_have_attribute(
            "aria-label", "Twoje karty: 7 kart, zakryte"
        )
        assert violations(blind) == []
        blind.get_by_role("button", name="Graj w ciemno (za 120)").click()
        others = [p for p in pages if p is not blind]
        for page in others:
            expect(page.locator("#log")).to_contain_text("gra w ciemno za 120")
        for _ in range(2):
            page_with(others, "Pas").get_by_role("button", name="Pas", exact=True).click()
            pages[0].wait_for_timeout(200)
        # Bidding is over: the blind declarer sees the cards and gives as usual.
        expect(blind.get_by_role("toolbar", name="Twoje karty")).to_be_visible()
        expect(blind.get_by_role("button", name="Oddaj karty")).to_be_visible()
        for page in others:  # the musik is shown to the declarer only
            expect(page.locator("#center .pile-open")).to_have_count(0)
        expect(blind.locator("#seats, #me").first).to_be_visible()
        for page in pages:
            page.context.close()
