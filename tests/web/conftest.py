"""Browser tests: Debian's Chromium driven by Playwright against a live server.

Outside CI a missing Chromium skips these tests; under CI (CI=true) it fails them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # The browser's language is Polish unless a test asks for another (a context's
    # locale): the pages follow navigator.languages and Accept-Language.
    "--lang=pl-PL",
    "--accept-lang=pl-PL",
]


# A page that waits for the server waits as long as under a busy machine's load (the
# suite runs beside other work on two cores): 5 s, Playwright's default, was seen to run
# out with the page right. A passing test does not wait longer for it.
expect.set_options(timeout=15_000)


def chromium_or_skip() -> str:
    if shutil.which(CHROMIUM) is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
        pytest.skip("Chromium is not installed (make test installs it)")
    return CHROMIUM


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    """One Playwright for the whole run (a second sync instance cannot start beside it)."""
    chromium_or_skip()
    with sync_playwright() as instance:
        yield instance


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield launched
    launched.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
