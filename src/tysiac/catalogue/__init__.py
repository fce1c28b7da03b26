"""Every name and sentence a player reads, once, by code: one JSON file per language.

``pl.json`` is the catalogue (Polish, the first language and the default); ``en.json``
and ``uk.json`` have the same keys, but for the counted texts, which have the plural
categories of their own language's CLDR rule (docs/catalogue.md). Its keys are flat, dotted codes
(``error.unknown_game``, ``option.bid_step.value.5``, ``level.strong``, ``phase.bidding``)
and its placeholders are named, ``{nick}``. docs/catalogue.md says how to add a word.

The server looks messages up here (``text``); the page gets the whole table of its
language from ``/api/site`` (``words``) and looks up with ``words.js``'s ``t``.

The two long texts, the rules (``/zasady``) and the terms and privacy policy
(``/regulamin``), are documents rather than words: one HTML fragment per language in
``documents/<lang>/<name>.html`` (``document``), with the same structure, element ids
and site links in every language (tools/check_catalogue.py).

Pure data: this package imports only the standard library and reads only its own files,
so the rules library may use it too (tests/rules/test_purity.py allows it, by name).
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

DOCUMENTS = ("rules", "terms")  # documents/<lang>/<name>.html
LANGUAGES = ("pl", "en", "uk")  # the site's languages, Polish first
DEFAULT = "pl"


def _has_file(lang: str) -> bool:
    return resources.files(__name__).joinpath(f"{lang}.json").is_file()


# The languages whose catalogue is here: those served; any other is spelled in Polish.
AVAILABLE = tuple(lang for lang in LANGUAGES if _has_file(lang))

_formatter = string.Formatter()


@cache
def words(lang: str = DEFAULT) -> Mapping[str, str]:
    """The catalogue of ``lang``: key -> text with its ``{named}`` placeholders."""
    if lang not in AVAILABLE:
        raise KeyError(f"no catalogue for language {lang!r}")
    data = json.loads(resources.files(__name__).joinpath(f"{lang}.json").read_text("utf-8"))
    assert isinstance(data, dict) and all(isinstance(v, str) for v in data.values())
    return data


def placeholders(template: str) -> frozenset[str]:
    """The names of a text's placeholders: ``"Już siedzisz jako {nick}."`` -> {"nick"}."""
    return frozenset(name for _, name, _, _ in _formatter.parse(template) if name is not None)


def text(key: str, lang: str = DEFAULT, /, **params: object) -> str:
    """The text of ``key`` with ``params`` filled in.

    An unknown key, a missing placeholder or an unused parameter raises ``KeyError``:
    a message is never shown half filled, and a test sees the mistake.
    """
    template = words(lang)[key]
    wanted = placeholders(template)
    if wanted != params.keys():
        raise KeyError(f"{key}: placeholders {sorted(wanted)}, given {sorted(params)}")
    if not wanted:
        return template
    return template.format_map({name: spelled(value, lang) for name, value in params.items()})


def spelled(value: object, lang: str = DEFAULT) -> object:
    """A parameter as it goes into a text: a ``Word`` (an option's name) in ``lang``."""
    return value.text(lang) if isinstance(value, Word) else value


@dataclass(frozen=True, slots=True)
class Word:
    """A message not yet spelled: its key and its parameters, spelled at the edge."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self, lang: str = DEFAULT) -> str:
        return text(self.key, lang, **self.params)


def spell(parts: tuple[Word, ...], lang: str = DEFAULT) -> str:
    """Several words as one message, one sentence after another."""
    return " ".join(part.text(lang) for part in parts)


@cache
def document(name: str, lang: str = DEFAULT) -> str:
    """The HTML of the document ``name`` (one of ``DOCUMENTS``) in ``lang``: the inside
    of its page's ``<main>``."""
    if name not in DOCUMENTS or lang not in AVAILABLE:
        raise KeyError(f"no document {name!r} in {lang!r}")
    return resources.files(__name__).joinpath("documents", lang, f"{name}.html").read_text("utf-8")
