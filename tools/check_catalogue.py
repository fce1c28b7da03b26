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
  form of a stem the page counts with (``counted("count.cards", n)``);
- every document (``documents/<lang>/<name>.html``) is in every language, is well formed,
  and has Polish's structure: the same block elements in the same order, the same
  element ids, and the same links within the site (links elsewhere may differ: a
  licence's page in the reader's language).

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
from html.parser import HTMLParser
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
    keys |= {
        f"document.{name}.{part}"
        for name in catalogue.DOCUMENTS
        for part in ("title", "description")
    }
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


# The elements that make a document's structure; the inline ones (strong, a, code…) may
# come and go as a language's sentences need them.
BLOCKS = frozenset(
    "h1 h2 h3 h4 p ul ol li dl dt dd table caption thead tbody tr th td section nav div".split()
)
VOID = frozenset("br hr img input meta link wbr".split())


class Outline(HTMLParser):
    """A document's structure: its block elements in order, its ids, its site links, and
    what is wrong with its nesting."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.ids: list[str] = []
        self.links: list[str] = []
        self.errors: list[str] = []
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in BLOCKS:
            self.blocks.append(tag)
        if found.get("id"):
            self.ids.append(str(found["id"]))
        href = found.get("href") or ""
        if href.startswith(("/", "#")):
            self.links.append(href)
        if tag not in VOID:
            self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self._open or self._open[-1] != tag:
            line, _ = self.getpos()
            self.errors.append(f"</{tag}> at line {line} closes {self._open[-1:] or 'nothing'}")
            return
        self._open.pop()

    def close(self) -> None:
        super().close()
        if self._open:
            self.errors.append(f"unclosed {self._open}")


def outline(path: Path) -> Outline:
    found = Outline()
    found.feed(path.read_text(encoding="utf-8"))
    found.close()
    return found


def document_problems(catalogue: Path = CATALOGUE) -> list[str]:
    """What a language's documents lack, or where their structure is not Polish's."""
    from tysiac.catalogue import DOCUMENTS

    languages = sorted(p.stem for p in catalogue.glob("*.json"))
    found: list[str] = []
    for name in DOCUMENTS:
        polish = catalogue / "documents" / "pl" / f"{name}.html"
        if not polish.is_file():
            return [f"pl: no document {name}"]
        model = outline(polish)
        for lang in languages:
            path = catalogue / "documents" / lang / f"{name}.html"
            if not path.is_file():
                found.append(f"{lang}: no document {name}")
                continue
            other = model if lang == "pl" else outline(path)
            found += [f"{lang}: document {name}: {error}" for error in other.errors]
            for what in ("blocks", "ids"):
                if getattr(other, what) != getattr(model, what):
                    found.append(f"{lang}: document {name}: its {what} are not Polish's")
            if sorted(other.links) != sorted(model.links):
                found.append(f"{lang}: document {name}: its site links are not Polish's")
    return found


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
    if (catalogue / "documents").is_dir():
        found += document_problems(catalogue)
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
