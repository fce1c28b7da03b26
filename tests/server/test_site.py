"""/api/site: the page's words and tables, once per load, revalidated by its ETag; and the
error body's ``field`` and ``params`` (docs/protocol.md)."""

from __future__ import annotations

from pathlib import Path

from tysiac import bots, catalogue
from tysiac.rules.options import CHOICES, PRESETS
from tysiac.server.game.table import KEPT

from .harness import live_server


def test_site_carries_the_words_and_the_tables_and_answers_304_to_its_etag(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        response = http.get("/api/site")
        assert response.status_code == 200
        assert response.headers["cache-control"] == "no-cache"
        site = response.json()
        assert site["words"] == dict(catalogue.words("pl")) and site["lang"] == "pl"
        assert [o["key"] for o in site["options"]] == list(CHOICES)
        bid_step = site["options"][0]
        assert bid_step == {
            "key": "bid_step",
            "id": "V1",
            "values": [10, 5],
            "default": 10,
            "value_ids": {},
        }
        barrel = next(o for o in site["options"] if o["key"] == "barrel")
        assert barrel["id"] == "V10" and barrel["value_ids"] == {"off": "V16"}
        # The presets with the options each sets, in the form's order ("custom": null).
        assert site["presets"] == [{"key": k, "options": o} for k, o in PRESETS.items()]
        assert site["presets"][1] == {
            "key": "gracz_pl",
            "options": {"bid_limit": "360", "mus": False, "barrel": "off"},
        }
        assert site["levels"] == list(bots.LEVELS)
        assert site["phases"][:2] == ["blind", "bidding"]
        assert site["limits"] == {"kept": KEPT, "nick": 20, "name": 40, "chat": 200}
        assert site["short_game"] == {"target": 500, "barrel": 300}
        again = http.get("/api/site", headers={"If-None-Match": response.headers["etag"]})
        assert again.status_code == 304 and not again.content


def test_a_refusal_names_its_field_and_its_values(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        long_nick = http.post("/api/games", json={"nick": "x" * 21, "players": 3})
        assert long_nick.json()["error"] == {
            "code": "too_long",
            "key": "error.too_long.nick",
            "message": "Nick może mieć najwyżej 20 znaków.",
            "field": "nick",
            "params": {"limit": 20},
        }
        options = http.post(
            "/api/games", json={"nick": "Ala", "players": 3, "options": {"bid_step": 7}}
        )
        assert options.json()["error"] == {
            "code": "bad_options",
            "key": "error.bad_options.value",
            "message": "Krok licytacji: niedozwolona wartość 7. Można: 10, 5.",
            "field": "options",
            "params": {"option": "Krok licytacji", "value": "7", "allowed": "10, 5"},
        }
        players = http.post("/api/games", json={"nick": "Ala", "players": 5})
        assert players.json()["error"]["field"] == "players"
        unknown = http.get("/api/games/ZZZZZZ").json()["error"]
        assert unknown == {
            "code": "unknown_game",
            "key": "error.unknown_game",
            "message": "Nie ma gry o takim kodzie.",
        }


def test_the_server_built_pages_answer_304_to_their_etag(tmp_path: Path) -> None:
    """The HTML pages the server fills in (their fallback words, a document in the
    reader's language) are revalidated like /api/site: a returning visitor's load costs
    a 304, and each language's document has its own ETag."""
    with live_server(tmp_path) as server, server.http() as http:
        tags: dict[str, str] = {}
        for path in (
            "/",
            "/kontakt",
            "/przebieg",
            "/g/ABCDEF",
            "/zasady?lang=pl",
            "/zasady?lang=en",
        ):
            page = http.get(path)
            assert page.status_code == 200 and page.headers["cache-control"] == "no-cache"
            assert page.text.startswith("<!doctype html>"), path
            tags[path] = page.headers["etag"]
            again = http.get(path, headers={"If-None-Match": tags[path]})
            assert again.status_code == 304 and not again.content, path
            assert again.headers["etag"] == tags[path]
        assert tags["/zasady?lang=pl"] != tags["/zasady?lang=en"]
        stale = http.get("/zasady?lang=en", headers={"If-None-Match": tags["/zasady?lang=pl"]})
        assert stale.status_code == 200 and stale.headers["content-language"] == "en"
        negotiated = http.get(
            "/regulamin", headers={"Accept-Language": "uk", "If-None-Match": tags["/"]}
        )
        assert (
            negotiated.status_code == 200
            and "accept-language" in negotiated.headers["vary"].lower()
        )
