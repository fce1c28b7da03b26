"""False positives over every form of Debian's Polish dictionary (wpolish, 4.3 million), and
its Ukrainian one (wukrainian, 1.5 million).

The suite's longest tests (their times: docs/performance.md). Forms that the file
data/dictionary-vulgar.txt calls vulgar, insulting or explicit are rightly blocked.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tysiac.wordfilter import find_vulgarity

from .corpus import DICTIONARY, UKRAINIAN, dictionary_vulgar, require

BENCH = Path(__file__).resolve().parents[2] / "bench" / "filter_corpus.py"


@pytest.mark.slow
def test_false_positives_are_under_one_in_ten_thousand_forms() -> None:
    require(DICTIONARY, "`make test` installs Debian's wpolish")
    forms = DICTIONARY.read_text("utf-8").split()
    assert len(forms) > 4_000_000
    vulgar = dictionary_vulgar()
    blocked = [form for form in forms if find_vulgarity(form)]
    false = [form for form in blocked if not vulgar.search(form)]
    assert len(false) < len(forms) / 10_000, false
    assert len(blocked) - len(false) > 10_000  # the dictionary's own vulgar forms are caught


@pytest.mark.slow
def test_false_positives_are_under_one_in_a_hundred_thousand_ukrainian_forms() -> None:
    """Debian's Ukrainian dictionary (wukrainian, 1.5 million forms): the Polish
    stems hit none of it (words all in Ukrainian letters are eastern.py's), the Ukrainian
    and Russian ones only what dictionary-vulgar-uk.txt calls vulgar, but for a few."""
    require(UKRAINIAN, "`make test` installs Debian's wukrainian")
    forms = UKRAINIAN.read_text("utf-8").split()
    assert len(forms) > 1_000_000
    vulgar = dictionary_vulgar("dictionary-vulgar-uk.txt")
    blocked = [form for form in forms if find_vulgarity(form)]
    false = [form for form in blocked if not vulgar.search(form)]
    assert len(false) < len(forms) / 100_000, false
    assert len(blocked) - len(false) > 300  # the dictionary's own vulgar forms are caught


def test_the_bench_prints_its_figures() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--sample", "2000"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "disguised vulgar forms:" in done.stdout
    assert "chat.txt: 0 hits" in done.stdout
    assert "Ukrainian and Russian vulgar forms:" in done.stdout
    assert "chat-uk.txt: 0 hits" in done.stdout
    assert "generated disguises, by kind:" in done.stdout
    assert "clean CamelCase nicks: 0 hits" in done.stdout
