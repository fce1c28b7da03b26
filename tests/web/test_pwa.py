"""The page is installable, and offline the service worker says so clearly."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Playwright, expect

from tests.server.harness import live_server
from tysiac import catalogue

from .conftest import CHROMIUM, CHROMIUM_ARGS


def test_installable_and_offline_page(playwright: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        # A persistent context: the default one reports itself incognito, never installable.
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        page = context.new_page()
        page.goto(server.base + "/")
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # now controlled by the service worker
        session = context.new_cdp_session(page)
        errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == []
        manifest = page.evaluate("() => fetch('/manifest.webmanifest').then(r => r.json())")
        assert manifest["lang"] == "pl" and manifest["start_url"] == "/"
        context.set_offline(True)
        page.goto(server.base + "/g/ABCDEF")
        heading = page.locator("h1")
        expect(heading).to_have_text(catalogue.text("page.offline.heading"))
        # Offline, in the language the reader chose: the offline page carries its words
        # in every language (the server filled them in when the worker kept the page).
        page.evaluate("localStorage.setItem('lang', 'uk')")
        page.reload()
        expect(heading).to_have_text(catalogue.text("page.offline.heading", "uk"))
        expect(page.locator("html")).to_have_attribute("lang", "uk")
        expect(page.locator("#retry")).to_have_text(catalogue.text("page.offline.retry", "uk"))
        expect(page).to_have_title(catalogue.text("page.offline.title", "uk"))
        context.close()
