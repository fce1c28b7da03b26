"""rules/ is a pure library: it imports only the standard library's pure parts, itself and
the catalogue of words (``tysiac.catalogue``), pure data read from its own package."""

from __future__ import annotations

import ast
import re
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "src" / "tysiac" / "rules"
ALLOWED = {
    "__future__",
    "argparse",
    "collections",
    "dataclasses",
    "datetime",
    "enum",
    "json",
    "random",
    "sys",
    "typing",
}
# The one project package the rules may use: the catalogue, whose words the rules' refusals
# are (``IllegalAction("error.must_follow")``). It is data and a lookup, imports only the
# standard library (checked below) and reads only its own JSON files.
PROJECT = {"tysiac.catalogue"}
CATALOGUE = RULES.parent / "catalogue" / "__init__.py"
# The command line (replay, demo) may read stdin and print; nothing else may.
IO_MODULES = {"__main__.py"}


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            project = node.module in PROJECT
            found.add(node.module if project else node.module.split(".")[0])
    return found


def test_rules_import_nothing_of_the_server_and_no_io() -> None:
    for path in RULES.glob("*.py"):
        extra = imports(path) - ALLOWED - PROJECT
        assert not extra, f"{path.name} imports {extra}"
        if path.name not in IO_MODULES:
            assert not imports(path) & {"sys", "argparse", "json"} or path.name == "replay.py"


def test_rules_read_no_clock_and_make_no_randomness_of_their_own() -> None:
    for path in RULES.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\b(time\.time|datetime\.now|datetime\.utcnow|date\.today)\b", text)
        assert not re.search(r"random\.(random|randrange|choice|shuffle|randint)\(", text), (
            path.name
        )
        assert "open(" not in text, path.name


def test_the_catalogue_the_rules_use_is_pure_too() -> None:
    assert imports(CATALOGUE) <= {
        "__future__",
        "collections",
        "dataclasses",
        "functools",
        "importlib",
        "json",
        "string",
        "typing",
    }
    text = CATALOGUE.read_text(encoding="utf-8")
    assert "open(" not in text and "import tysiac" not in text
