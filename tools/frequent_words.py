"""Write tests/wordfilter/data/frequent-pl.txt: the most frequent Polish words that are forms
of Debian's Polish dictionary (wpolish), less those it is right to block.

    pip install --target /tmp/wordfreq wordfreq
    PYTHONPATH=/tmp/wordfreq python tools/frequent_words.py [N]

The frequencies are wordfreq's (https://github.com/rspeer/wordfreq, its data under CC BY-SA
4.0); the list is only read by the tests (``tests/wordfilter/disguise.py``), which disguise
each word and require that none is blocked. Not a dependency of the project.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.wordfilter.corpus import DATA, DICTIONARY, dictionary_vulgar  # noqa: E402

HEADER = """\
# The {count} most frequent Polish words (wordfreq {version}: https://github.com/rspeer/wordfreq,
# data under CC BY-SA 4.0) that are forms of Debian's Polish dictionary (wpolish), less the
# forms dictionary-vulgar.txt calls vulgar; written by tools/frequent_words.py. Each word is
# disguised by tests/wordfilter/disguise.py: nothing may be blocked.
"""


def main() -> None:
    from importlib.metadata import version

    import wordfreq  # type: ignore[import-not-found]

    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    forms = set(DICTIONARY.read_text("utf-8").split())
    vulgar = dictionary_vulgar()
    words = []
    for word in wordfreq.top_n_list("pl", 60_000):
        if len(word) < 2 or not word.isalpha() or vulgar.search(word):
            continue
        if word in forms or word.capitalize() in forms:
            words.append(word)
        if len(words) == count:
            break
    text = HEADER.format(count=len(words), version=version("wordfreq"))
    (DATA / "frequent-pl.txt").write_text(text + "\n".join(words) + "\n", "utf-8")


if __name__ == "__main__":
    main()
