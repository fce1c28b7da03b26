"""The markers the runs select by, and the browser tests last.

``browser``: every test in tests/web (set here, not by hand). Playwright's sync API keeps
an event loop running in the main thread for the rest of the session, and asyncio.run()
refuses to start beside it: in a run of everything they go last; ``make test`` runs them
in an invocation of their own after the others (which run in parallel, pytest-xdist).

``slow``: the tests that take seconds even on a quiet machine; ``make test-fast`` leaves
them out, with the browser tests. They run first of the others, so that none of them is
started last by a parallel run, alone while the other workers idle.

A run that selects by ``-m`` or ``-k`` and finds nothing to run (say ``-m browser`` on
tests/rules) ends with exit code 0, not 5: an empty selection is not a failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest

WEB = Path(__file__).parent / "web"


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the marker set here
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if WEB in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)
    # The slow ones first: with pytest-xdist the run then does not wait on one of them
    # started last; the others keep their order.
    items.sort(
        key=lambda item: (WEB in Path(item.path).parents, item.get_closest_marker("slow") is None)
    )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # The selection is known here even when pytest-xdist's workers did the collecting.
    selected = session.config.getoption("markexpr") or session.config.getoption("keyword")
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and selected:
        session.exitstatus = pytest.ExitCode.OK
