"""The deal review ("Przebieg partii") in real Chromium: a finished game's every hand step
by step from its end screen, the keys and the URL, a verdict's mark in words, the record
saved and opened again from the file ("Otwórz zapis"), a refused record, axe, its words
and screenshots on a phone in Ukrainian and a desktop in English."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.harness import TABLE_NICKS, Endpoint, live_server, play_until

from .test_accessibility import violations
from .ui import (
    DESKTOP,
    LOCALES,
    SMALL_PHONE,
    new_page,
    open_player,
    outside_catalogue,
    polish_left,
    say,
)

pytestmark = pytest.mark.slow

# A card's verdict: its sign and its words.
MARK = re.compile(
    r"^(✓ najlepsza"
    r"|\?! −\d+ pkt \(lepsza: .+\)"
    r"|\?\? −\d+ pkt \(lepsza: .+\)"
    r"|✗ oddany kontrakt \(lepsza: .+\))$"
)


def second_hand_dealt(state: dict[str, Any]) -> bool:
    view = state.get("view")
    return bool(view and view["results"] and view["hand"] and view["hand"]["phase"] != "over")


def finish(server: Endpoint, players: int) -> str:
    """A game over the socket: one whole hand, then a surrender in the next (so the
    review has a hand played out and one cut short). Its code."""
    code, tokens = server.full_table(players)
    clients = [server.client(code, token) for token in tokens]
    play_until(clients, second_hand_dealt)
    me = clients[0]
    while True:  # sent again when another seat moved first: it was on an older version
        me.move({"type": "surrender"})
        answer = me.wait(
            lambda m: (
                m["type"] == "error" or (m["type"] == "state" and m["game"]["status"] == "finished")
            )
        )
        if answer["type"] == "state":
            break
        assert answer["error"]["code"] == "stale"
    for client in clients:
        client.close()
    return code


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Endpoint, str]]:
    """A finished three-player game."""
    with live_server(tmp_path_factory.mktemp("review"), hand_pause_seconds=0) as server:
        yield server, finish(server, 3)


def query(page: Page) -> str:
    return page.url.split("?", 1)[1] if "?" in page.url else ""


def wait_for_analysis(page: Page) -> None:
    expect(page.locator("#hand-verdicts")).to_be_visible(timeout=60_000)


def test_a_finished_game_step_by_step(
    browser: Browser, finished: tuple[Endpoint, str], tmp_path: Path
) -> None:
    server, code = finished
    page = open_player(browser, f"{server.base}/g/{code}", DESKTOP)
    page.get_by_role("link", name="Przebieg partii").click()
    page.wait_for_url(re.compile(rf"/g/{code}/przebieg\?rozdanie=1&krok=0$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Przebieg partii")
    expect(page.locator("#step-text")).to_contain_text("Rozdaje")
    expect(page.locator("#counter")).to_have_text(re.compile(r"^Krok 0 z \d+$"))
    expect(page.get_by_label("Rozdanie", exact=True)).to_have_value("0")
    # Every seat's cards face up: three seats, each with its cards named.
    expect(page.locator(".review-seat")).to_have_count(3)
    assert page.locator(".review-seat").first.get_by_role("img").count() >= 7
    expect(
        page.get_by_text("Gra i jej przebieg zostaną usunięte 7 dni po końcu gry")
    ).to_be_visible()

    # The keys step and the URL follows; the buttons are real buttons.
    page.locator("body").press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert query(page) == "rozdanie=1&krok=2"
    page.keyboard.press("ArrowLeft")
    assert query(page) == "rozdanie=1&krok=1"
    page.keyboard.press("End")
    last = int(re.search(r"krok=(\d+)", page.url).group(1))  # type: ignore[union-attr]
    expect(page.locator("#step-text")).to_contain_text("Koniec rozdania")
    expect(page.get_by_role("button", name="Krok naprzód")).to_be_disabled()
    page.keyboard.press("PageDown")
    assert query(page) == "rozdanie=2&krok=0"
    page.keyboard.press("ArrowUp")
    assert query(page) == "rozdanie=1&krok=0"
    page.get_by_role("button", name="Koniec rozdania").click()
    assert query(page) == f"rozdanie=1&krok={last}"
    # The button went disabled at the end: the focus is on the way back, not lost.
    expect(page.get_by_role("button", name="Krok wstecz")).to_be_focused()
    page.get_by_role("button", name="Początek rozdania").click()
    assert query(page) == "rozdanie=1&krok=0"
    page.get_by_label("Rozdanie", exact=True).select_option("1")
    assert query(page) == "rozdanie=2&krok=0"

    # The verdicts: the hand played out has one for each card, in a sign and words.
    page.get_by_label("Rozdanie", exact=True).select_option("0")
    wait_for_analysis(page)
    expect(page.locator("#open-verdict")).to_contain_text("Z otwartymi kartami rozgrywający")
    expect(page.locator("#verdicts-note")).to_contain_text("wszystkich kartach odkrytych")
    page.locator("body").press("End")
    mark = page.locator("#step-mark")
    expect(mark).to_be_visible()
    assert MARK.match(mark.inner_text()), mark.inner_text()
    expect(page.locator("#live")).to_contain_text("Ocena karty")
    mistakes = page.locator("#mistakes button")
    if mistakes.count():
        first = mistakes.first
        step = first.get_attribute("data-step")
        first.click()
        assert query(page) == f"rozdanie=1&krok={step}"
        expect(mark).not_to_have_text("✓ najlepsza")
    else:
        expect(page.locator("#mistakes-none")).to_be_visible()
    expect(page.locator("#counts table")).to_be_visible()

    # A link opens exactly its place.
    page.goto(f"{server.base}/g/{code}/przebieg?rozdanie=1&krok=5")
    expect(page.locator("#counter")).to_have_text(re.compile(r"^Krok 5 z \d+$"))

    # The record, saved and opened again from the file.
    with page.expect_download() as download:
        page.get_by_role("link", name="Zapisz zapis").click()
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["format"] == "tysiac-record"
    page.goto(f"{server.base}/przebieg")
    expect(page.get_by_role("heading", name="Otwórz zapis")).to_be_visible()
    page.get_by_label("Plik zapisu").set_input_files(saved)
    expect(page.locator("#meta")).to_contain_text("Zapis otwarty z pliku.")
    expect(page.locator("#counter")).to_have_text(re.compile(r"^Krok 0 z \d+$"))
    page.keyboard.press("End")
    expect(page.locator("#step-text")).to_contain_text("Koniec rozdania")
    wait_for_analysis(page)

    # A record whose results do not follow is refused with the server's words.
    result = record["hands"][0]["result"]
    result["delta"] = [d + 10 for d in result["delta"]]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    page.get_by_label("Plik zapisu").set_input_files(bad)
    expect(page.locator("#error")).to_contain_text(
        "Tego zapisu nie da się odtworzyć: błąd w rozdaniu 1."
    )
    expect(page.locator("#error")).to_be_visible()
    page.context.close()


# Each width in a language of its own (Ukrainian, the longest words, on the phone); the
# Polish review: test_a_finished_game_step_by_step.
@pytest.mark.parametrize(
    ("viewport", "lang"), [(SMALL_PHONE, "uk"), (DESKTOP, "en")], ids=["375-uk", "1280-en"]
)
def test_the_review_is_accessible_and_fits(
    browser: Browser,
    finished: tuple[Endpoint, str],
    screenshots: Path,
    viewport: dict[str, int],
    lang: str,
) -> None:
    server, code = finished
    width = viewport["width"]
    context = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        locale=LOCALES[lang],
        reduced_motion="reduce",
    )
    page = new_page(context, LOCALES[lang])
    page.goto(f"{server.base}/g/{code}/przebieg?rozdanie=1&krok=14")
    wait_for_analysis(page)
    expect(page.locator("#step-mark")).to_be_visible()
    # Its words, the verdicts' among them: the page's language's, from the catalogue.
    assert polish_left(page, lang) == []
    assert outside_catalogue(page, lang, also=TABLE_NICKS) == []
    # Nothing wider than the screen: the hands' cards wrap, they do not overflow.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert violations(page, colours_only=scheme == "dark") == [], scheme
        page.screenshot(path=screenshots / f"review-{width}-{scheme}.png", full_page=True)
    page.goto(f"{server.base}/przebieg")
    expect(page.get_by_label(say(page, "review.open.label"))).to_be_visible()
    assert violations(page) == []
    page.screenshot(path=screenshots / f"review-open-{width}.png", full_page=True)
    context.close()


def test_four_hands_face_up_fit_a_phone(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    """Four players: at 375 px every seat's cards wrap in rows of cards still big enough
    to read (the table page's own small cards are 1.1rem; these at least 28 px)."""
    with live_server(tmp_path, hand_pause_seconds=0) as server:
        code = finish(server, 4)
        context = browser.new_context(viewport=SMALL_PHONE, locale="pl-PL")  # type: ignore[arg-type]
        page = context.new_page()
        page.goto(f"{server.base}/g/{code}/przebieg?rozdanie=1&krok=0")
        expect(page.locator(".review-seat")).to_have_count(4)
        assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
        cards = page.locator(".review-seat .card")
        assert cards.count() == 21  # 7 cards to each of the three seats dealt (R7)
        widths = page.evaluate(
            "[...document.querySelectorAll('.review-seat .card')]"
            ".map((c) => c.getBoundingClientRect().width)"
        )
        assert min(widths) >= 28, widths
        expect(page.get_by_text("pauzuje")).to_be_visible()  # the dealer sits out (R7)
        page.screenshot(path=screenshots / "review-4-players-375.png", full_page=True)
        context.close()
