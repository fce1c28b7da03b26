"""The pages' own words in the page's language: the HTML's headings, labels, buttons,
footer links, aria-labels and titles (data-t, site.js fillPage) and what the modules
write are the catalogue's, in Polish, English and Ukrainian: no Polish left in another
language (``polish_left``), no line outside the catalogue (``outside_catalogue``). Walked
in Chromium: the home page, a game page at the table (375 and 1280 px), the rules and the
terms (the documents of that language), the contact page, the offline page and the
review's "open a record" page."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.server.harness import TABLE_NICKS, live_server
from tests.web.test_accessibility import violations
from tests.web.ui import DESKTOP, SMALL_PHONE, outside_catalogue, polish_left, seat_page
from tysiac import catalogue

PAGES = ("/", "/zasady", "/regulamin", "/kontakt", "/offline.html", "/przebieg")
LOCALES = {"pl": "pl-PL", "en": "en-US", "uk": "uk-UA"}


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_pages_words_are_the_pages_language(
    tmp_path: Path, browser: Browser, lang: str, screenshots: Path
) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(3)
        for viewport in (SMALL_PHONE, DESKTOP):
            seat = seat_page(
                browser, server.base, code, 0, tokens[0], viewport=viewport, locale=LOCALES[lang]
            )
            expect(seat.locator("#table")).to_be_visible()
            expect(seat.locator("#hand > *").first).to_be_visible()
            where = f"/g/{code} at {viewport['width']}"
            assert polish_left(seat, lang) == [], where
            assert outside_catalogue(seat, lang, also=TABLE_NICKS) == [], where
            if viewport is DESKTOP:  # axe on the phone: test_accessibility, a language a width
                assert violations(seat) == []
            seat.screenshot(
                path=screenshots / f"table-{lang}-{viewport['width']}.png", full_page=True
            )
            seat.context.close()

        context = browser.new_context(locale=LOCALES[lang])
        page = context.new_page()
        for path in PAGES:
            page.goto(server.base + path)
            page.wait_for_load_state("networkidle")
            assert polish_left(page, lang) == [], path
            assert outside_catalogue(page, lang) == [], path
        # A sentence with a link and a number inside keeps them at their placeholders.
        page.goto(server.base + "/kontakt")
        note = page.locator(".note-box")
        per_day = catalogue.text(
            f"count.contact_per_day.{'other' if lang == 'en' else 'many'}", lang, n=5
        )
        expect(note.locator("#per-day")).to_have_text(per_day)
        privacy = catalogue.words(lang)["contact.privacy"]
        expect(note.locator('a[href="/regulamin#prywatnosc"]')).to_have_text(privacy)
        context.close()


def test_a_line_outside_the_catalogue_is_found(browser: Browser) -> None:
    """The check finds what it is for: a sentence a module would write itself, in the
    page's language, is reported; the catalogue's texts with their placeholders filled
    (by a number, a card, a nick and a code the test gives as ``also``), in a style's
    capitals, a date as the browser writes it in the language and a link are not."""
    en = catalogue.words("en")
    said = [
        catalogue.text("error.already_seated", "en", nick="Zażółć"),
        catalogue.text("count.cards.other", "en", n=7),
        catalogue.text("card.name", "en", rank=en["card.rank.Q"], suit=en["card.suit.H"]),
        en["table.hand.label"].upper(),
        catalogue.text("table.share.text", "en", code="AB12CD") + " ♠ 120 — (3)",
        "http://127.0.0.1:8000/g/AB12CD",
    ]
    typed = "Good game, everyone!"  # the test's own chat line
    written = "Please wait while we shuffle the cards"
    glued = "Offside"  # "Off" is a text: a word that starts with it is still no text
    body = "".join(f"<p>{line}</p>" for line in [*said, typed, written, glued])
    page = browser.new_page()
    page.set_content(
        f'<html lang="en"><head><title>{en["page.brand"]}</title></head><body>{body}'
        f'<button aria-label="Deal again">↻</button>'
        f'<input placeholder="{en["home.nick"]}"><p id="when"></p></body></html>'
    )
    page.evaluate(
        """() => { document.getElementById("when").textContent = new Date(2024, 6, 7, 13, 5)
            .toLocaleString("en", { dateStyle: "long", timeStyle: "short" }); }"""
    )
    found = outside_catalogue(page, "en", also=["Zażółć", "AB12CD", typed])
    assert [line.split("  ⟵  ")[0] for line in found] == [written, glued, "Deal again"]
    assert found[0].endswith("⟵  Please wait while we shuffle the")  # "cards": a text
    page.close()
