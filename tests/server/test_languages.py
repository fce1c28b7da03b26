"""The language the server answers in: ``?lang=`` (the page's choice), else
``Accept-Language`` weighed by its q-values, else Polish; ``/api/site`` per language with
its own ETag (``Vary: Accept-Language`` when negotiated); the refusals' own wording in
the request's language, with the key the page words them by."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tysiac import catalogue
from tysiac.server.http.language import negotiate

from .harness import live_server

ALL = ("pl", "en", "uk")


def vary(response: httpx.Response) -> list[str]:
    """The request headers a response varies by (the gzip layer adds Accept-Encoding)."""
    return [name.strip().lower() for name in response.headers.get("vary", "").split(",")]


def needs(lang: str) -> None:
    if lang not in catalogue.AVAILABLE:
        pytest.skip(f"no {lang}.json yet: the translation lands after the machinery")


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("uk-UA", "uk"),
        ("uk-UA,uk;q=0.9,pl;q=0.8", "uk"),
        ("en-GB", "en"),
        ("de-DE,de;q=0.9,en;q=0.5,pl;q=0.4", "en"),  # the first the site has, by weight
        ("en;q=0.1, uk;q=0.9", "uk"),
        ("pl-PL", "pl"),
        ("de-DE, fr", "pl"),  # none the site has
        ("*", "pl"),
        ("", "pl"),
        (None, "pl"),
        ("en;q=x;;,", "pl"),  # malformed: Polish, never an error
    ],
)
def test_accept_language_is_weighed_by_q_values(header: str | None, lang: str) -> None:
    assert negotiate(header, ALL) == lang


def test_only_the_languages_with_a_catalogue_count() -> None:
    assert negotiate("uk-UA", ("pl",)) == "pl"
    assert negotiate("uk-UA,en;q=0.5", ("pl", "en")) == "en"
    assert catalogue.AVAILABLE[0] == "pl" and set(catalogue.AVAILABLE) <= set(ALL)


def test_site_answers_in_the_asked_language_and_polish_for_an_unknown_one(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        unknown = http.get("/api/site?lang=xx")
        assert unknown.json()["lang"] == "pl"
        assert unknown.json()["words"] == dict(catalogue.words("pl"))
        assert unknown.json()["languages"] == list(catalogue.AVAILABLE)
        assert "accept-language" not in vary(unknown)  # the URL says it all
        polish = http.get("/api/site", headers={"Accept-Language": "de-DE,pl;q=0.5"})
        assert polish.json()["lang"] == "pl"
        assert "accept-language" in vary(polish)
        assert polish.headers["etag"] == unknown.headers["etag"]  # the same bytes
        again = http.get("/api/site?lang=pl", headers={"If-None-Match": polish.headers["etag"]})
        assert again.status_code == 304


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_site_answers_in_each_language_with_its_own_etag(tmp_path: Path, lang: str) -> None:
    needs(lang)
    header = {"en": "en-GB,en;q=0.9", "uk": "uk-UA,ru;q=0.8"}[lang]
    with live_server(tmp_path) as server, server.http() as http:
        asked = http.get(f"/api/site?lang={lang}")
        assert asked.json()["lang"] == lang
        assert asked.json()["words"] == dict(catalogue.words(lang))
        negotiated = http.get("/api/site", headers={"Accept-Language": header})
        assert negotiated.json()["lang"] == lang
        assert "accept-language" in vary(negotiated)
        assert negotiated.headers["etag"] == asked.headers["etag"]
        polish = http.get("/api/site?lang=pl")
        assert polish.headers["etag"] != asked.headers["etag"]
        # A 304 only to the language's own ETag.
        etag = {"If-None-Match": asked.headers["etag"]}
        assert http.get(f"/api/site?lang={lang}", headers=etag).status_code == 304
        assert http.get("/api/site?lang=pl", headers=etag).status_code == 200


def test_a_refusal_carries_its_key_and_is_worded_in_the_requests_language(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        for lang in catalogue.AVAILABLE:
            words = catalogue.words(lang)
            missing = http.get("/nope", headers={"Accept-Language": lang})
            assert missing.json()["error"] == {
                "code": "not_found",
                "key": "error.not_found",
                "message": words["error.not_found"],
            }
            long_nick = http.post(
                f"/api/games?lang={lang}", json={"nick": "x" * 21, "players": 3}
            ).json()["error"]
            assert long_nick["key"] == "error.too_long.nick"
            assert long_nick["message"] == words["error.too_long.nick"].format(limit=20)
            assert long_nick["params"] == {"limit": 20}


def test_the_manifest_is_worded_in_the_requests_language(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        for lang in catalogue.AVAILABLE:
            words = catalogue.words(lang)
            response = http.get("/manifest.webmanifest", headers={"Accept-Language": lang})
            assert response.headers["content-type"].startswith("application/manifest+json")
            assert "accept-language" in vary(response)
            manifest = response.json()
            assert manifest["lang"] == lang
            assert manifest["name"] == words["manifest.name"]
            assert manifest["description"] == words["manifest.description"]
            assert manifest["start_url"] == "/" and manifest["icons"]
        assert http.get("/manifest.webmanifest?lang=xx").json()["lang"] == "pl"


def test_the_documents_come_in_the_requests_language(tmp_path: Path) -> None:
    """/zasady and /regulamin: the document of ``?lang=``, else of ``Accept-Language``,
    inside a page whose lang, title, description and own words are that language's."""
    with live_server(tmp_path) as server, server.http() as http:
        for path, name in (("/zasady", "rules"), ("/regulamin", "terms")):
            for lang in catalogue.AVAILABLE:
                asked = http.get(f"{path}?lang={lang}", headers={"Accept-Language": "pl"})
                negotiated = http.get(path, headers={"Accept-Language": f"{lang},pl;q=0.5"})
                for response in (asked, negotiated):
                    assert response.status_code == 200
                    assert response.headers["content-type"] == "text/html; charset=utf-8"
                    assert response.headers["content-language"] == lang
                    page = response.text
                    assert f'<html lang="{lang}" data-document="{name}">' in page
                    title = catalogue.text(f"document.{name}.title", lang)
                    assert f"<title>{title}</title>" in page
                    assert catalogue.document(name, lang) in page
                    assert catalogue.text("review.footer.contact", lang) in page
                    assert "$" not in page.replace(catalogue.document(name, lang), "")
                assert "accept-language" not in vary(asked)
                assert "accept-language" in vary(negotiated)
            # The footer marks the page it is on, and no other.
            page = http.get(path).text
            assert page.count('aria-current="page"') == 1
            assert f'href="{path}" aria-current="page"' in page
        unknown = http.get("/zasady?lang=xx", headers={"Accept-Language": "uk"})
        assert '<html lang="pl"' in unknown.text
