"""The word filter on real corpora: detection, false positives and speed, one core.

    python bench/filter_corpus.py [--sample N] [--show fp|vulgar|missed] [--top N]

- detection over the disguised vulgar forms of tests/wordfilter (base forms x disguises,
  and real-world forms), for each disguise: caught of all, and the forms missed; the same
  for the Ukrainian and Russian forms (should be all);
- hits in the ordinary sentences, the card-game chat (Polish, Ukrainian, Russian,
  English), the names and the traps (should be none);
- false positives over every form of Debian's Polish dictionary (``apt-get install
  wpolish``), less the forms that tests/wordfilter/data/dictionary-vulgar.txt calls
  vulgar, insulting or explicit; ``--sample N`` takes every k-th form instead; the false
  positives grouped by the stem that matched (``--top N`` clusters, with examples);
- the time per chat line or sentence (wall clock and CPU), and words per second over the
  dictionary (folding included);
- with ``--ukrainian``, the same over Debian's Ukrainian dictionary (``apt-get install
  wukrainian``, 1.5 million forms), less the forms that
  tests/wordfilter/data/dictionary-vulgar-uk.txt calls vulgar or insulting.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.wordfilter.corpus import (  # noqa: E402
    CLEAN,
    DICTIONARY,
    UKRAINIAN,
    dictionary_vulgar,
    disguised,
    eastern_disguised,
    lines,
)

from tysiac.wordfilter import WordFilter  # noqa: E402


def detection(words: WordFilter, title: str, forms: Iterable[tuple[str, str, object]]) -> None:
    """How many of ``forms`` (text, disguise, …) the filter catches, in all and per disguise."""
    totals: collections.Counter[str] = collections.Counter()
    missed: dict[str, list[str]] = collections.defaultdict(list)
    for text, disguise, _ in forms:
        totals[disguise] += 1
        if words.find(text) is None:
            missed[disguise].append(text)
    total = sum(totals.values())
    caught = total - sum(len(texts) for texts in missed.values())
    print(f"{title}: {caught}/{total} detected ({100 * caught / total:.2f}%)")
    print_detection(totals, missed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=0, help="about N dictionary forms only")
    parser.add_argument("--show", choices=("fp", "vulgar", "missed"), help="list those forms")
    parser.add_argument("--top", type=int, default=15, help="false-positive clusters shown")
    parser.add_argument("--ukrainian", action="store_true", help="the Ukrainian dictionary too")
    args = parser.parse_args()
    words = WordFilter()
    print(f"LDNOOBW lists loaded: {', '.join(words.ldnoobw) or 'none (run make assets)'}")

    detection(words, "disguised vulgar forms", disguised())
    detection(words, "Ukrainian and Russian vulgar forms", eastern_disguised())

    for name in CLEAN:
        corpus = lines(name)
        hits = [(line, words.find(line)) for line in corpus]
        hits = [(line, found) for line, found in hits if found]
        print(f"{name}: {len(hits)} hits in {len(corpus)} lines")
        for line, found in hits:
            print(f"  {found!r} in {line!r}")

    words.find("warm-up")
    for name, files in (
        ("a chat line or sentence", ("chat.txt", "sentences.txt", "traps.txt")),
        (
            "a Ukrainian, Russian or English chat line",
            ("chat-uk.txt", "chat-ru.txt", "chat-en.txt"),
        ),
    ):
        messages = [line for file in files for line in lines(file)]
        started, cpu = time.perf_counter(), time.process_time()
        for _ in range(10):
            for message in messages:
                words.find(message)
        per_message = (time.perf_counter() - started) / (10 * len(messages))
        cpu_per_message = (time.process_time() - cpu) / (10 * len(messages))
        print(
            f"{name}: {per_message * 1e6:.0f} µs on average ({cpu_per_message * 1e6:.0f} µs"
            " of CPU: less when other processes share the cores)"
        )
    if args.ukrainian:
        print_ukrainian(words, args.top)

    if not DICTIONARY.exists():
        print(f"{DICTIONARY} is missing: apt-get install wpolish")
        return
    forms = DICTIONARY.read_text("utf-8").split()
    if args.sample:
        forms = forms[:: max(1, len(forms) // args.sample)]
    started = time.perf_counter()
    hits = {form: found for form in forms if (found := words.find(form))}
    seconds = time.perf_counter() - started
    vulgar = dictionary_vulgar()
    genuine = [form for form in hits if vulgar.search(form)]
    false = [form for form in hits if not vulgar.search(form)]
    rate = 100 * len(false) / len(forms)
    print(f"dictionary: {len(forms):,} forms, {len(hits):,} blocked, of which")
    print(f"  {len(genuine):,} genuinely vulgar/insulting/explicit (dictionary-vulgar.txt)")
    print(f"  {len(false)} false positives ({rate:.4f}% of all forms)")
    print(f"  speed: {len(forms) / seconds:,.0f} words/s ({seconds:.1f} s)")
    clusters = collections.Counter(hits[form] for form in false)
    for stem, count in clusters.most_common(args.top):
        examples = ", ".join(form for form in false if hits[form] == stem)
        print(f"  cluster {stem!r}: {count} ({examples[:100]})")
    if args.show == "fp":
        print("\n".join(f"  {form} ({hits[form]})" for form in false))
    elif args.show == "vulgar":
        print("\n".join(f"  {form} ({hits[form]})" for form in genuine))
    elif args.show == "missed":
        print("\n".join(f"  {form}" for form in forms if vulgar.search(form) and form not in hits))


def print_detection(totals: collections.Counter[str], missed: dict[str, list[str]]) -> None:
    for disguise, count in totals.items():
        lost = missed.get(disguise, [])
        share = 100 * (count - len(lost)) / count
        examples = f"  missed: {', '.join(map(repr, lost[:4]))}" if lost else ""
        print(f"  {disguise:<22} {count - len(lost):>4}/{count:<4} {share:6.2f}%{examples}")


def print_ukrainian(words: WordFilter, top: int) -> None:
    if not UKRAINIAN.exists():
        print(f"{UKRAINIAN} is missing: apt-get install wukrainian")
        return
    forms = UKRAINIAN.read_text("utf-8").split()
    started = time.perf_counter()
    hits = {form: found for form in forms if (found := words.find(form))}
    seconds = time.perf_counter() - started
    vulgar = dictionary_vulgar("dictionary-vulgar-uk.txt")
    false = [form for form in hits if not vulgar.search(form)]
    print(f"Ukrainian dictionary: {len(forms):,} forms, {len(hits):,} blocked, of which")
    print(f"  {len(hits) - len(false):,} genuinely vulgar/insulting (dictionary-vulgar-uk.txt)")
    print(f"  {len(false)} false positives ({100 * len(false) / len(forms):.4f}% of all forms)")
    print(f"  speed: {len(forms) / seconds:,.0f} words/s ({seconds:.1f} s)")
    clusters = collections.Counter(hits[form] for form in false)
    for stem, count in clusters.most_common(top):
        examples = ", ".join(form for form in false if hits[form] == stem)
        print(f"  cluster {stem!r}: {count} ({examples[:100]})")


if __name__ == "__main__":
    main()
