"""First-load page weight: bytes a fresh browser downloads for the home page and a game page.

    python bench/page_weight.py

Loads ``/`` and then ``/g/CODE`` (a waiting game) in a new Chromium context with an
empty cache and sums the bodies of every response as transferred (after compression),
reporting fonts separately.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict

import httpx
from playwright.sync_api import Response, sync_playwright

from local_server import running_server

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def weigh(browser: object, url: str) -> dict[str, int]:
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    sizes: dict[str, int] = defaultdict(int)

    def count(response: Response) -> None:
        if response.url.startswith("ws"):
            return
        kind = "font" if response.url.endswith((".woff2", ".woff")) else "other"
        with contextlib.suppress(Exception):  # redirects and aborted requests have no body
            response.finished()
            transferred = response.request.sizes()["responseBodySize"]  # as sent, compressed
            sizes[kind] += transferred

    page.on("response", count)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    context.close()
    return dict(sizes)


def main() -> None:
    with running_server() as base, sync_playwright() as playwright:
        code = httpx.post(f"{base}/api/games", json={"nick": "Ala", "players": 3}).json()["code"]
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for name, url in (("home", f"{base}/"), ("game", f"{base}/g/{code}")):
            sizes = weigh(browser, url)
            print(
                f"{name:5} {sizes.get('other', 0):>9,} bytes without fonts, "
                f"{sizes.get('font', 0):>9,} bytes of fonts"
            )
        browser.close()


if __name__ == "__main__":
    main()
