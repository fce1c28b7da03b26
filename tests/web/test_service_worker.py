"""The service worker precaches every module the pages import, under a versioned cache.

No browser needed: the pages' scripts are followed import by import, as a browser
would load them, and the worker's precache list is read from sw.js.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin

import pytest

from tests.server.harness import live_server
from tysiac.server.http import pages
from tysiac.web import STATIC

SCRIPT = re.compile(r"<script\b[^>]*\bsrc=\"([^\"]+)\"", re.I)
STATIC_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*["']([^"']+)["']""")
DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*(?:["']([^"']+)["']|([A-Za-z_$][\w$]*))\s*\)""")
VENDOR = "/static/vendor/"


def file_of(url: str) -> Path:
    if url.startswith("/static/"):
        return STATIC / url.removeprefix("/static/")
    return STATIC / pages.PAGES[url]


def constant(source: str, name: str) -> str:
    found = re.search(rf"""\bconst\s+{re.escape(name)}\s*=\s*["']([^"']+)["']""", source)
    assert found, f"import({name}) is not a string constant"
    return found.group(1)


def imports(url: str) -> tuple[set[str], set[str]]:
    """The URLs that one module imports: statically, and by import()."""
    source = file_of(url).read_text(encoding="utf-8")
    static = {urljoin(url, target) for target in STATIC_IMPORT.findall(source)}
    dynamic = {
        urljoin(url, literal or constant(source, name))
        for literal, name in DYNAMIC_IMPORT.findall(source)
    }
    return static, dynamic


def closure(roots: set[str]) -> tuple[set[str], set[str]]:
    """Every module loaded with the pages (static imports), and those loaded on demand."""
    loaded: set[str] = set()
    on_demand: set[str] = set()
    todo = [(url, False) for url in roots]
    while todo:
        url, lazy = todo.pop()
        if url in (on_demand if lazy else loaded):
            continue
        (on_demand if lazy else loaded).add(url)
        static, dynamic = imports(url)
        todo += [(u, lazy) for u in static] + [(u, True) for u in dynamic]
    return loaded, on_demand - loaded


def page_scripts() -> set[str]:
    html_pages = sorted(STATIC.glob("*.html"))
    assert {p.name for p in html_pages} >= {
        "index.html",
        "game.html",
        "contact.html",
        "offline.html",
    }
    return {url for page in html_pages for url in SCRIPT.findall(page.read_text(encoding="utf-8"))}


def precached() -> set[str]:
    worker = (STATIC / "sw.js").read_text(encoding="utf-8")
    shell = re.search(r"const SHELL = \[(.*?)\];", worker, re.S)
    assert shell
    return set(re.findall(r'"([^"]+)"', shell.group(1)))


def test_every_module_the_pages_import_is_precached() -> None:
    loaded, on_demand = closure(page_scripts())
    assert "/static/js/render.js" in loaded and "/static/js/contact.js" in loaded  # followed
    assert not loaded - precached()
    # Loaded on demand (OpenPGP.js on the contact page, and its chunks): vendor files,
    # cached on first use in the worker's versioned cache.
    assert "/static/vendor/openpgp/noble_curves.min.mjs" in on_demand
    assert all(url.startswith(VENDOR) for url in on_demand), on_demand


def test_every_precached_file_exists() -> None:
    for url in precached():
        assert file_of(url).is_file(), url


def test_the_cache_is_named_after_the_static_files(tmp_path: Path) -> None:
    static = tmp_path / "static"
    (static / "vendor" / "openpgp").mkdir(parents=True)
    chunk = static / "vendor" / "openpgp" / "chunk.min.mjs"
    chunk.write_text("export const a = 1;")
    (static / "sw.js").write_text('const ASSETS = "dev";')
    first = pages.assets_version(static)
    assert re.fullmatch(r"[0-9a-f]{16}", first)
    assert pages.assets_version(static) == first
    (static / "sw.js").write_text('const ASSETS = "dev"; // edited')
    assert pages.assets_version(static) == first  # the worker's own bytes change anyway
    chunk.write_text("export const a = 2;")  # an upgraded library, same file name
    assert pages.assets_version(static) != first
    (static / "new.js").write_text("")
    assert len({first, pages.assets_version(static)}) == 2


def test_the_worker_is_served_with_its_cache_name(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        response = http.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["service-worker-allowed"] == "/"
    assert response.headers["cache-control"] == "no-cache"
    assert f'const ASSETS = "{pages.assets_version()}";' in response.text
    assert 'const ASSETS = "dev";' not in response.text
    assert "const CACHE = `tysiac-${ASSETS}`;" in response.text


@pytest.mark.parametrize("page", ["index.html", "game.html", "contact.html"])
def test_each_page_loads_a_module(page: str) -> None:
    source = (STATIC / page).read_text(encoding="utf-8")
    assert re.search(r'<script type="module" src="/static/js/[a-z]+\.js"></script>', source)
