"""The page's language in the browser: the browser's own (navigator.languages), else
Polish; a choice in the settings dialog ("Język / Language / Мова") kept across reloads
(localStorage ``lang``); ``<html lang>`` follows it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.server.harness import live_server
from tysiac import catalogue


def needs(lang: str) -> None:
    if lang not in catalogue.AVAILABLE:
        pytest.skip(f"no {lang}.json yet: the translation lands after the machinery")


def open_settings(page: Page) -> None:
    page.click("#settings-open")
    expect(page.locator("#settings-dialog")).to_be_visible()


def test_a_language_the_site_lacks_gives_polish(tmp_path: Path, browser: Browser) -> None:
    with live_server(tmp_path) as server:
        context = browser.new_context(locale="de-DE")
        page = context.new_page()
        page.goto(server.base + "/")
        open_settings(page)
        expect(page.locator("html")).to_have_attribute("lang", "pl")
        legend = page.locator("#settings-dialog fieldset.language legend")
        expect(legend).to_have_text(catalogue.words("pl")["settings.language"])
        # Every language the server has, each by its own name, the page's one chosen.
        names = page.locator("#settings-dialog fieldset.language label")
        expect(names).to_have_text(
            [catalogue.words(c)[f"language.{c}"] for c in catalogue.AVAILABLE]
        )
        expect(page.locator('input[name="lang"][value="pl"]')).to_be_checked()
        context.close()


def test_the_browsers_language_is_the_pages(tmp_path: Path, browser: Browser) -> None:
    needs("uk")
    with live_server(tmp_path) as server:
        context = browser.new_context(locale="uk-UA")
        page = context.new_page()
        page.goto(server.base + "/")
        expect(page.locator("html")).to_have_attribute("lang", "uk")
        open_settings(page)
        words = catalogue.words("uk")
        expect(page.locator("#settings-title")).to_have_text(words["settings.title"])
        expect(page.locator('input[name="lang"][value="uk"]')).to_be_checked()
        # A document's link naming another language than the reader's (no choice made):
        # the reader's own language, by the browser's.
        page.goto(server.base + "/zasady?lang=en#beczka")
        expect(page).to_have_url(re.compile(r"/zasady#beczka$"))
        expect(page.locator("h1")).to_have_text(first_heading("rules", "uk"))
        context.close()


def test_the_chosen_language_is_kept_after_a_reload(tmp_path: Path, browser: Browser) -> None:
    needs("en")
    with live_server(tmp_path) as server:
        context = browser.new_context(locale="pl-PL")
        page = context.new_page()
        page.goto(server.base + "/")
        expect(page.locator("html")).to_have_attribute("lang", "pl")
        open_settings(page)
        with page.expect_navigation():
            page.click('input[name="lang"][value="en"]')
        expect(page.locator("html")).to_have_attribute("lang", "en")
        assert page.evaluate("localStorage.getItem('lang')") == "en"
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        open_settings(page)
        words = catalogue.words("en")
        expect(page.locator("#settings-title")).to_have_text(words["settings.title"])
        expect(page.locator('input[name="lang"][value="en"]')).to_be_checked()
        # Another page of the site, in the same language; a document's page asks the
        # server for the chosen language's document (the browser's is Polish).
        page.goto(server.base + "/regulamin")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page).to_have_url(re.compile(r"/regulamin\?lang=en$"))
        expect(page.locator("h1")).to_have_text(first_heading("terms", "en"))
        # Switched there, the document follows at once.
        needs("uk")
        open_settings(page)
        with page.expect_navigation():
            page.click('input[name="lang"][value="uk"]')
        expect(page).to_have_url(re.compile(r"/regulamin\?lang=uk$"))
        expect(page.locator("h1")).to_have_text(first_heading("terms", "uk"))
        expect(page).to_have_title(catalogue.text("document.terms.title", "uk"))
        context.close()


def first_heading(name: str, lang: str) -> str:
    """The text of the document's ``<h1>``."""
    found = re.search(r"<h1>(.*?)</h1>", catalogue.document(name, lang))
    assert found, f"{name} in {lang} has no h1"
    return found.group(1)


def holding(held: list[Route]) -> Callable[[Route], None]:
    """A route handler that keeps each request it is handed in ``held``, unanswered."""
    return lambda route: held.append(route)


def test_a_page_for_another_language_is_shown_in_it_not_in_polish_first(
    tmp_path: Path, browser: Browser
) -> None:
    """The pages' HTML is Polish until the words of the reader's language come: an English
    reader's page stays hidden until then (or 3 s, whatever came), a Polish one's never."""
    needs("en")
    visibility = "getComputedStyle(document.body).visibility"
    with live_server(tmp_path) as server:
        for locale, first in (("pl-PL", "visible"), ("en-GB", "hidden")):
            context = browser.new_context(locale=locale, service_workers="block")
            held: list[Route] = []
            context.route("**/api/site*", holding(held))  # the words wait until released
            page = context.new_page()
            page.goto(server.base + "/", wait_until="domcontentloaded")
            while not held:
                page.wait_for_timeout(20)
            assert page.evaluate(visibility) == first, locale
            if first == "hidden":
                page.wait_for_function(f"() => {visibility} === 'visible'", timeout=4500)
            held[0].continue_()
            lang = locale[:2]
            expect(page.locator("h1")).to_have_text(catalogue.words(lang)["home.heading"])
            assert page.evaluate(visibility) == "visible"
            context.close()
