"""Run the browser tests last: Playwright's sync API keeps an event loop running in the
main thread for the rest of the session, and asyncio.run() refuses to start beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

WEB = Path(__file__).parent / "web"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: WEB in Path(item.path).parents)
