"""The catalogues' check (`make lint`): every language says everything, and nothing else.

    python tools/check_catalogue.py [--catalogue DIR] [--src DIR]

- every language file (``<lang>.json`` beside ``pl.json``) has every key of ``pl.json``,
  no other key, and the same placeholders per key;
- a counted text (``count.<what>.<category>``) has, in each language, exactly the plural
  categories that language's CLDR rule gives whole numbers (ICU's rules, as the browser's
  ``Intl.PluralRules``): Polish and Ukrainian one/few/many, English one/other;
- every key of ``pl.json`` is used: written out whole in the sources (Python, JavaScript,
  HTML), or a member of a family the code's own tables name (``families``: the option
  values of ``rules.options.CHOICES``, the phases of ``Phase``, ``bots.LEVELS``…), or a
  form of a stem the page counts with (``counted("count.cards", n)``).

Prints each problem on a line and exits 1 if there is any. docs/catalogue.md.
"""

from __future__ import annotations

import argparse
import json
import re
import string
import sys
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# This tree's code, not an installed copy: the families are read from its tables.
sys.path.insert(0, str(ROOT / "src"))

import icu  # noqa: E402  (PyICU: the project's own dependency, CLDR's plural rules)

CATALOGUE = ROOT / "src" / "tysiac" / "catalogue"
SRC = ROOT / "src" / "tysiac"
# CLDR's categories in their usual order.
CATEGORIES = ("zero", "one", "two", "few", "many", "other")
PLURAL = re.compile(rf"^(count\..+)\.({'|'.join(CATEGORIES)})$")
COUNTED = re.compile(r'\bcounted\(\s*["\']([^"\'$]+)["\']')
_formatter = string.Formatter()


@cache
def plural_categories(lang: str) -> tuple[str, ...]:
    """The categories ``lang``'s rule gives the whole numbers: ``"en"`` -> one, other."""
    rules = icu.PluralRules.forLocale(icu.Locale(lang))
    found = {rules.select(n) for n in range(1001)}
    return tuple(category for category in CATEGORIES if category in found)


def placeholders(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in _formatter.parse(template) if name is not None)


def stems(words: Iterable[str]) -> set[str]:
    """The counted texts' stems among ``words``' keys: ``count.cards``."""
    return {m.group(1) for key in words if (m := PLURAL.match(key))}


def load(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise ValueError(f"{path.name}: not an object of texts")
    return data


def language_problems(pl: Mapping[str, str], lang: str, words: Mapping[str, str]) -> list[str]:
    """What ``lang``'s catalogue lacks, has too many, or spells with other placeholders."""
    counted = stems(pl)
    expected = {key for key in pl if not PLURAL.match(key)}
    expected |= {f"{stem}.{category}" for stem in counted for category in plural_categories(lang)}
    problems = [f"{lang}: missing key {key}" for key in sorted(expected - words.keys())]
    problems += [f"{lang}: extra key {key}" for key in sorted(words.keys() - expected)]
    for key in sorted(expected & words.keys()):
        match = PLURAL.match(key)
        source = pl[key] if match is None else pl[f"{match.group(1)}.{plural_categories('pl')[0]}"]
        if placeholders(words[key]) != placeholders(source):
            problems.append(
                f"{lang}: {key} has placeholders {sorted(placeholders(words[key]))},"
                f" pl.json {sorted(placeholders(source))}"
            )
        if not words[key].strip():
            problems.append(f"{lang}: {key} is empty")
    return problems


def families() -> set[str]:
    """The keys the code's tables name, each used wherever its table is shown (built from
    ``level.${level}``, ``phase.${phase}``, ``option.${key}.value.${value}``…)."""
    from tysiac import bots, catalogue
    from tysiac.rules import cards
    from tysiac.rules.hand import Phase
    from tysiac.rules.options import CHOICES, PRESETS, value_key
    from tysiac.server.moderation import texts, violations

    keys = {f"level.{level}" for level in bots.LEVELS}
    keys |= {f"phase.{phase.value}" for phase in Phase}
    keys |= {f"language.{lang}" for lang in catalogue.LANGUAGES}
    for key, values in CHOICES.items():
        keys |= {f"option.{key}.name", f"option.{key}.help"}
        keys |= {value_key(key, value) for value in values}
    for preset, chosen in PRESETS.items():
        keys.add(f"preset.{preset}.name")
        if not chosen:  # the standard rules and "Własne": a line of help
            keys.add(f"preset.{preset}.help")
        if chosen is not None:  # every preset that sets options: where its tables play so
            keys.add(f"preset.{preset}.where")
    for field in (texts.NICK, texts.NAME, texts.CHAT):
        for code in ("empty_text", "too_long", "too_many_marks", "bad_characters"):
            keys.add(f"error.{code}.{field.kind}")
    keys |= {f"error.vulgar.{kind}" for kind in violations.FIELDS}
    keys |= {f"error.{what}_step.{step}" for what in ("bid", "contract") for step in (10, 5)}
    actions = (SRC / "rules" / "actions.py").read_text(encoding="utf-8")
    keys |= {f"error.malformed.action.{w}" for w in re.findall(r'_malformed\("(\w+)"', actions)}
    # A card's names by its codes (rules/cards.py; a11y.js, cards.js and card_name spell
    # them as card.rank.${rank}).
    keys |= {f"card.{part}.{rank}" for part in ("rank", "face") for rank in cards.RANKS}
    keys |= {f"card.suit.{suit}" for suit in cards.SUITS}
    return keys


def sources(src: Path) -> list[Path]:
    """The files that may use a key: Python, JavaScript, HTML, outside the catalogue."""
    found = [p for ext in ("py", "js", "html") for p in src.rglob(f"*.{ext}")]
    return sorted(p for p in found if "catalogue" not in p.parts and "vendor" not in p.parts)


def unused_keys(pl: Mapping[str, str], src: Path, named: set[str]) -> list[str]:
    """The keys of ``pl`` no source writes out whole (in quotes), no family names and no
    ``counted`` stem stands for."""
    quoted: set[str] = set()
    counted: set[str] = set()
    for path in sources(src):
        text = path.read_text(encoding="utf-8")
        quoted |= set(re.findall(r"""["'`]([A-Za-z0-9_.]+)["'`]""", text))
        counted |= set(COUNTED.findall(text))
    used = quoted | named
    return sorted(
        key
        for key in pl
        if key not in used and not ((m := PLURAL.match(key)) and m.group(1) in counted)
    )


def problems(
    catalogue: Path = CATALOGUE, src: Path = SRC, named: set[str] | None = None
) -> list[str]:
    """Every problem of the catalogues in ``catalogue`` against the sources in ``src``."""
    pl = load(catalogue / "pl.json")
    found = language_problems(pl, "pl", pl)
    for path in sorted(catalogue.glob("*.json")):
        if path.stem != "pl":
            found += language_problems(pl, path.stem, load(path))
    found += [
        f"pl: unused key {key}"
        for key in unused_keys(pl, src, families() if named is None else named)
    ]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalogue", type=Path, default=CATALOGUE)
    parser.add_argument("--src", type=Path, default=SRC)
    args = parser.parse_args(argv)
    found = problems(args.catalogue, args.src)
    for line in found:
        print(line)
    languages = sorted(p.stem for p in args.catalogue.glob("*.json"))
    print(f"catalogue: {len(found)} problem(s) in {', '.join(languages)}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
