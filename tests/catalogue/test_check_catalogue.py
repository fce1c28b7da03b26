"""tools/check_catalogue.py (`make lint`): the real catalogues pass it; a missing key, an
extra key, a differing placeholder, plural categories other than the language's rule and
an unused key each fail it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tools import check_catalogue as check

from tysiac import catalogue

ROOT = Path(__file__).resolve().parents[2]
PL = {
    "error.nick_taken": "Nick {nick} jest zajęty.",
    "count.cards.one": "{n} karta",
    "count.cards.few": "{n} karty",
    "count.cards.many": "{n} kart",
}
EN = {
    "error.nick_taken": "The nick {nick} is taken.",
    "count.cards.one": "{n} card",
    "count.cards.other": "{n} cards",
}
UK = {
    "error.nick_taken": "Нік {nick} уже зайнятий.",
    "count.cards.one": "{n} карта",
    "count.cards.few": "{n} карти",
    "count.cards.many": "{n} карт",
}
SOURCE = 'say(t("error.nick_taken", { nick }), counted("count.cards", n));\n'


def tree(tmp_path: Path, **files: dict[str, str]) -> tuple[Path, Path]:
    """A catalogue folder with ``files`` (lang -> texts) and a source using PL's keys."""
    folder, src = tmp_path / "catalogue", tmp_path / "src"
    folder.mkdir()
    src.mkdir()
    (src / "page.js").write_text(SOURCE, encoding="utf-8")
    for lang, words in files.items():
        (folder / f"{lang}.json").write_text(json.dumps(words, ensure_ascii=False), "utf-8")
    return folder, src


def found(tmp_path: Path, **files: dict[str, str]) -> list[str]:
    folder, src = tree(tmp_path, **files)
    return check.problems(folder, src, named=set())


def test_the_project_catalogues_pass() -> None:
    assert check.problems() == []


def test_the_plural_categories_are_each_languages_cldr_rule() -> None:
    assert check.plural_categories("pl") == ("one", "few", "many")
    assert check.plural_categories("uk") == ("one", "few", "many")
    assert check.plural_categories("en") == ("one", "other")
    for lang in catalogue.AVAILABLE:  # the files here have exactly their rule's forms
        counted = {
            key.rsplit(".", 1)[1] for key in catalogue.words(lang) if key.startswith("count.")
        }
        assert counted == set(check.plural_categories(lang)), lang


def test_three_languages_with_their_own_plurals_pass(tmp_path: Path) -> None:
    assert found(tmp_path, pl=PL, en=EN, uk=UK) == []


def test_a_missing_key_fails(tmp_path: Path) -> None:
    en = {k: v for k, v in EN.items() if k != "error.nick_taken"}
    assert found(tmp_path, pl=PL, en=en) == ["en: missing key error.nick_taken"]


def test_an_extra_key_fails(tmp_path: Path) -> None:
    en = {**EN, "error.nick_gone": "Gone."}
    assert found(tmp_path, pl=PL, en=en) == ["en: extra key error.nick_gone"]


def test_polish_plural_forms_in_english_fail(tmp_path: Path) -> None:
    en = {
        "error.nick_taken": EN["error.nick_taken"],
        **{k: v for k, v in PL.items() if "count" in k},
    }
    assert found(tmp_path, pl=PL, en=en) == [
        "en: missing key count.cards.other",
        "en: extra key count.cards.few",
        "en: extra key count.cards.many",
    ]


def test_a_differing_placeholder_fails(tmp_path: Path) -> None:
    uk = {**UK, "error.nick_taken": "Нік {name} уже зайнятий.", "count.cards.few": "кілька карт"}
    assert found(tmp_path, pl=PL, uk=uk) == [
        "uk: count.cards.few has placeholders [], pl.json ['n']",
        "uk: error.nick_taken has placeholders ['name'], pl.json ['nick']",
    ]


def test_an_unused_key_fails_unless_a_family_names_it(tmp_path: Path) -> None:
    pl = {**PL, "phase.bidding": "licytacja"}
    folder, src = tree(tmp_path, pl=pl)
    assert check.problems(folder, src, named=set()) == ["pl: unused key phase.bidding"]
    assert check.problems(folder, src, named={"phase.bidding"}) == []
    # The project's own families: the phases of rules.hand.Phase.
    assert "phase.bidding" in check.families()


def test_the_script_exits_with_the_problems(tmp_path: Path) -> None:
    folder, src = tree(tmp_path, pl={**PL, "error.unheard": "Nikt tego nie mówi."}, en=EN)
    script = ROOT / "tools" / "check_catalogue.py"
    run = [sys.executable, str(script), "--catalogue", str(folder), "--src", str(src)]
    failed = subprocess.run(run, capture_output=True, text=True, check=False)
    assert failed.returncode == 1
    assert failed.stdout.splitlines() == [
        "en: missing key error.unheard",
        "pl: unused key error.unheard",
    ]
    real = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=False
    )
    assert real.returncode == 0, real.stdout


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_a_translation_is_checked_once_it_is_here(lang: str) -> None:
    if lang not in catalogue.AVAILABLE:
        pytest.skip(f"no {lang}.json yet: the translation lands after the machinery")
    assert not [line for line in check.problems() if line.startswith(f"{lang}:")]


RULES = """<h1>Jak grać</h1>
<p>Talia ma <strong>24 karty</strong>, zob. <a href="#karty">karty</a>.</p>
<h2 id="karty">Karty</h2>
<ul><li>as</li><li>król</li></ul>
"""


def documents(folder: Path, **texts: str) -> None:
    """Every document of the catalogue in each language of ``texts``: ``RULES``' text for
    the rules, one paragraph for the rest."""
    for lang, rules in texts.items():
        (folder / "documents" / lang).mkdir(parents=True)
        for name in catalogue.DOCUMENTS:
            text = rules if name == "rules" else "<p>§</p>\n"
            (folder / "documents" / lang / f"{name}.html").write_text(text, "utf-8")


def test_a_translated_document_keeps_the_polish_structure(tmp_path: Path) -> None:
    english = """<h1>How to play</h1>
<p>The deck has 24 cards, see <a href="#karty"><em>cards</em></a>.</p>
<h2 id="karty">Cards</h2>
<ul><li>ace</li><li>king</li></ul>
"""
    folder, src = tree(tmp_path, pl=PL, en=EN)
    documents(folder, pl=RULES, en=english)
    assert check.problems(folder, src, named=set()) == []


@pytest.mark.parametrize(
    ("english", "problem"),
    [
        (None, "en: no document rules"),
        (RULES.replace('id="karty"', 'id="cards"'), "en: document rules: its ids are not Polish's"),
        (
            RULES.replace("<ul>", "<ol>").replace("</ul>", "</ol>"),
            "en: document rules: its blocks are not Polish's",
        ),
        (
            RULES.replace('href="#karty"', 'href="/zasady"'),
            "en: document rules: its site links are not Polish's",
        ),
        (RULES.replace("</strong>", ""), "en: document rules: </p> at line 2 closes ['strong']"),
    ],
    ids=["missing", "id", "block", "link", "nesting"],
)
def test_a_document_unlike_the_polish_fails(
    tmp_path: Path, english: str | None, problem: str
) -> None:
    folder, src = tree(tmp_path, pl=PL, en=EN)
    documents(folder, pl=RULES, **({} if english is None else {"en": english}))
    assert problem in check.problems(folder, src, named=set())
