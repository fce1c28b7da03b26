"""First-load page weight: what a first visit to a game page downloads, gzipped.

    python bench/page_weight.py [--url http://127.0.0.1:8000] [--code ABCDEF] [--browser]

Starts a throwaway server (or uses ``--url``), creates a game through the API (or uses
``--code``) and fetches ``/g/CODE`` and every resource it loads on a first visit: the
HTML, what it links (stylesheet, manifest, icons) and its scripts, the images the CSS
names (``url()``), and the JS modules, followed import by import (``import … from
"./x.js"``, ``export … from``, ``import "./x.js"``). Fonts (woff, woff2, ttf, otf: loaded
only with the "Wyraźna" font) and sounds (only with sounds on) are left out. Each body
is gzipped at level 6, as a typical server or proxy sends it, and the total is checked
against the budget: 100 KB (102,400 bytes) gzipped. The home page is weighed the same
way. Listed apart, and not counted: what the service worker fetches after the page has
loaded (its script and the precache it installs, fonts left out), and what is loaded
on demand (modules behind ``import()``, the sounds).

The page's words come from ``/api/site?lang=…`` (the catalogue of its language), which
every page fetches once: it is weighed per language and added to each page's total, the
budget checked for the heaviest language. The rules and terms pages (a document per
language in one shell) are weighed per language too.

``--browser`` also loads the game page in Chromium with an empty cache and compares its
requests with the list above (a request the walk missed means the walk is wrong), and
times a first visit to DOMContentLoaded with 0, 50 and 150 ms added to every request
(Chromium's network emulation): the modules' round trips.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import re
import statistics
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

import httpx

from local_server import running_server
from tysiac.server.http.pages import STATIC_IMPORT  # the imports the server preloads

if TYPE_CHECKING:
    from playwright.sync_api import Browser

BUDGET = 100 * 1024  # bytes, gzipped
LEVEL = 6
FONTS = (".woff", ".woff2", ".ttf", ".otf")
SOUNDS = Path(__file__).resolve().parents[1] / "src" / "tysiac" / "web" / "static" / "sounds"

DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*["']([^"']+)["']\s*\)""")
REGISTER = re.compile(r"""serviceWorker\.register\(\s*["']([^"']+)["']""")
CSS_URL = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)""")
LINKED = {"stylesheet", "manifest", "icon", "apple-touch-icon", "preload", "modulepreload"}


class Links(HTMLParser):
    """The URLs an HTML page loads by itself: linked files, scripts and images."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []  # (kind, url)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "link" and LINKED & set(a.get("rel", "").lower().split()) and a.get("href"):
            self.found.append(("css" if "stylesheet" in a["rel"] else "file", a["href"]))
        elif tag == "script" and a.get("src"):
            self.found.append(("js", a["src"]))
        elif tag == "img" and a.get("src"):
            self.found.append(("file", a["src"]))


def gzipped(body: bytes) -> int:
    return len(gzip.compress(body, compresslevel=LEVEL, mtime=0))


def left_out(path: str) -> bool:
    return path.endswith(FONTS) or path.startswith("/static/sounds/")


class Walk:
    """Fetch a page and what it loads, following stylesheets and imports."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        self.bodies: dict[str, bytes] = {}
        self.on_demand: set[str] = set()
        self.workers: set[str] = set()

    def fetch(self, path: str) -> bytes:
        if path not in self.bodies:
            response = self.http.get(path)
            response.raise_for_status()
            self.bodies[path] = response.content
        return self.bodies[path]

    def page(self, path: str) -> None:
        links = Links()
        links.feed(self.fetch(path).decode("utf-8"))
        for kind, url in links.found:
            self.resource(kind, urljoin(path, url))

    def resource(self, kind: str, path: str) -> None:
        if urlsplit(path).netloc:
            return  # another site's file (there are none: the CSP allows only 'self')
        path = urlsplit(path).path
        if left_out(path) or path in self.bodies:
            return
        text = self.fetch(path).decode("utf-8", errors="replace")
        if kind == "css":
            for url in CSS_URL.findall(text):
                if not url.startswith("data:"):
                    self.resource("file", urljoin(path, url))
        elif kind == "js":
            for target in (a or b for a, b in STATIC_IMPORT.findall(text)):
                self.resource("js", urljoin(path, target))
            self.on_demand |= {urljoin(path, t) for t in DYNAMIC_IMPORT.findall(text)}
            self.workers |= {urljoin(path, t) for t in REGISTER.findall(text)}


def table(rows: dict[str, bytes], title: str) -> tuple[int, int]:
    print(title)
    print(f"  {'path':<44} {'raw bytes':>11} {'gzip bytes':>11}")
    raw = packed = 0
    for path, body in rows.items():
        size = gzipped(body)
        raw, packed = raw + len(body), packed + size
        print(f"  {path:<44} {len(body):>11,} {size:>11,}")
    print(f"  {'total':<44} {raw:>11,} {packed:>11,}")
    return raw, packed


def weigh(http: httpx.Client, path: str, label: str) -> Walk:
    walk = Walk(http)
    walk.page(path)
    _, packed = table(walk.bodies, f"{label} {path}, first visit (gzip -{LEVEL})")
    verdict = "yes" if packed <= BUDGET else "NO"
    print(f"  within the budget of {BUDGET:,} bytes gzipped: {verdict}\n")
    return walk


LANGUAGES = ("pl", "en", "uk")


def per_language(http: httpx.Client, pages: dict[str, Walk]) -> bool:
    """Each page's first visit with its words (``/api/site``) in each language, and the
    documents' pages in each language; True when every one is within the budget."""
    print("Per language: the page's files above plus its words (/api/site?lang=…), gzipped")
    documents = {"/zasady": "rules", "/regulamin": "terms"}
    names = [*pages, *documents]
    print(f"  {'language':<10} {'words':>8} " + " ".join(f"{n:>12}" for n in names))
    within = True
    for lang in LANGUAGES:
        words = gzipped(http.get("/api/site", params={"lang": lang}).content)
        totals = [sum(gzipped(b) for b in walk.bodies.values()) + words for walk in pages.values()]
        for path in documents:
            walk = Walk(http)
            walk.page(f"{path}?lang={lang}")
            totals.append(sum(gzipped(b) for b in walk.bodies.values()) + words)
        within &= max(totals) <= BUDGET
        print(f"  {lang:<10} {words:>8,} " + " ".join(f"{total:>12,}" for total in totals))
    print(f"  every page in every language within {BUDGET:,} bytes: {'yes' if within else 'NO'}\n")
    return within


def after_load(http: httpx.Client, walk: Walk) -> None:
    """The service worker's script and the files it precaches that the page did not load."""
    extra = Walk(http)
    for worker in sorted(walk.workers):
        source = extra.fetch(worker).decode("utf-8")
        shell = re.search(r"const SHELL = \[(.*?)\];", source, re.S)
        for url in re.findall(r"""["']([^"']+)["']""", shell.group(1) if shell else ""):
            if url not in walk.bodies and not left_out(url):
                extra.fetch(url)
    if extra.bodies:
        table(extra.bodies, "After load, the service worker (not counted above; fonts left out)")
        print()


def on_demand(http: httpx.Client, walk: Walk) -> None:
    rows = {path: Walk(http).fetch(path) for path in sorted(walk.on_demand - walk.bodies.keys())}
    rows |= {f"/static/sounds/{p.name}": http.get(f"/static/sounds/{p.name}").content
             for p in sorted(SOUNDS.glob("*.wav"))}  # fmt: skip
    table(rows, "Loaded on demand (not counted above): import(), sounds once turned on")


def in_the_browser(base: str, path: str, walked: set[str]) -> None:
    """Chromium's own requests for the page, against the walk's list."""
    from playwright.sync_api import Response, sync_playwright  # only with --browser

    seen: dict[str, int] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_context().new_page()

        def count(response: Response) -> None:
            url = urlsplit(response.url)
            if url.scheme.startswith("http") and not url.path.startswith("/api/"):
                with contextlib.suppress(Exception):  # aborted requests have no sizes
                    seen[url.path] = response.request.sizes()["responseBodySize"]

        page.on("response", count)
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        loads = {rtt: first_load(browser, base + path, rtt) for rtt in ROUND_TRIPS}
        browser.close()
    counted = {p: s for p, s in seen.items() if not left_out(p)}
    print(f"\nChromium, {path}: {len(counted)} requests, {sum(counted.values()):,} bytes as sent")
    print(f"  (by this server's own compression; fonts and sounds: {len(seen) - len(counted)})")
    for name, paths in (("missed by the walk", counted.keys() - walked),
                        ("walked, not requested", walked - seen.keys())):  # fmt: skip
        print(f"  {name}: {', '.join(sorted(paths)) or 'none'}")
    print(f"  a first visit's modules fetched and run (DOMContentLoaded), median of {LOADS}:")
    for rtt, ms in loads.items():
        print(f"    {rtt:>4} ms a round trip (Chromium's emulation): {ms:,.0f} ms")


ROUND_TRIPS = (0, 50, 150)  # a local server; a good mobile network; a poor one
LOADS = 5


def first_load(browser: Browser, url: str, rtt: int) -> float:
    """The median time from a first visit's request to DOMContentLoaded (module scripts
    run before it, so every module has been fetched), with ``rtt`` ms added to every
    request by Chromium's network emulation, an empty cache each time."""
    times = []
    for _ in range(LOADS):
        context = browser.new_context()
        page = context.new_page()
        conditions = {"offline": False, "latency": rtt, "downloadThroughput": -1}
        context.new_cdp_session(page).send(
            "Network.emulateNetworkConditions", {**conditions, "uploadThroughput": -1}
        )
        page.goto(url, wait_until="domcontentloaded")
        times.append(page.evaluate(NAVIGATION))
        context.close()
    return statistics.median(times)


NAVIGATION = "performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"


@contextlib.contextmanager
def server(url: str | None) -> Iterator[str]:
    if url:
        yield url.rstrip("/")
    else:
        with running_server() as base:
            yield base


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--code", help="an existing game (default: create one)")
    parser.add_argument("--browser", action="store_true", help="compare with Chromium")
    args = parser.parse_args()
    with server(args.url) as base, httpx.Client(base_url=base, timeout=10) as http:
        code = args.code
        if not code:
            created = http.post("/api/games", json={"nick": "Ala", "players": 3})
            created.raise_for_status()
            code = created.json()["code"]
        game = weigh(http, f"/g/{code}", "Game page")
        home = weigh(http, "/", "Home page")
        within_all = per_language(http, {"game": game, "home": home})
        after_load(http, game)
        on_demand(http, game)
        if args.browser:
            in_the_browser(base, f"/g/{code}", set(game.bodies))
    return 0 if within_all and home.bodies else 1


if __name__ == "__main__":
    sys.exit(main())
