"""The pages' own words in the page's language: the HTML's headings, labels, buttons,
footer links, aria-labels and titles (data-t, site.js fillPage) are the catalogue's in
English and Ukrainian, no Polish left. Walked in Chromium: the home page, a game page at
the table, the rules and the terms (the documents of that language), the contact page,
the offline page and the review's "open a record" page."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.server.harness import live_server
from tests.web.test_accessibility import violations
from tests.web.ui import DESKTOP, SMALL_PHONE, polish_left, seat_page
from tysiac import catalogue

PAGES = ("/", "/zasady", "/regulamin", "/kontakt", "/offline.html", "/przebieg")
LOCALES = {"en": "en-US", "uk": "uk-UA"}


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
            assert polish_left(seat, lang) == [], f"/g/{code} at {viewport['width']}"
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
