"""Every page names the modules its script imports (``<link rel="modulepreload">``, filled
in by the server), so a first visit asks for them all at once: what Chromium fetches of
/static/js before a page has loaded is exactly its preloads and its own scripts."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Request

from tests.server.harness import live_server

# The pages with a module script (the game's and its review's: a game's code filled in).
PAGES = ["/", "/g/{code}", "/g/{code}/przebieg", "/przebieg", "/zasady", "/kontakt"]
PATHNAMES = "elements => elements.map(e => new URL(e.href || e.src).pathname)"


def first_visit(browser: Browser, url: str) -> tuple[set[str], list[str], list[str]]:
    """The /static/js files a first visit to ``url`` fetches by its load event, the page's
    modulepreloads and its scripts."""
    context = browser.new_context()  # an empty cache
    page = context.new_page()
    fetched: set[str] = set()

    def module(request: Request) -> None:
        if (path := urlsplit(request.url).path).startswith("/static/js/"):
            fetched.add(path)

    page.on("request", module)
    page.goto(url, wait_until="load")
    preloads = page.eval_on_selector_all('link[rel="modulepreload"]', PATHNAMES)
    scripts = page.eval_on_selector_all("script[src]", PATHNAMES)  # boot.js, no module, too
    context.close()
    return fetched, preloads, scripts


def test_a_first_visit_fetches_the_preloaded_modules_and_no_others(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path) as server:
        code, _ = server.full_table(3)
        for path in (p.format(code=code) for p in PAGES):
            fetched, preloads, scripts = first_visit(browser, server.base + path)
            assert preloads and len(set(preloads)) == len(preloads), path
            assert not set(preloads) & set(scripts), path
            assert sorted(fetched) == sorted([*scripts, *preloads]), path
