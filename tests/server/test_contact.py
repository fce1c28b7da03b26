"""The contact form's server side with real parts: GnuPG encrypts, aiosmtpd receives.

What is checked: a well-formed encrypted message reaches the operator's mailbox
unchanged and decrypts to what was written; anything else is refused with a clear
error and nothing is sent; five a day from one address; a failed relay costs nothing;
the key, its fingerprint and the Web Key Directory.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from tysiac.server.contact import openpgp
from tysiac.store import backend
from tysiac.store.contact import forget_old_contact_sends, reserve_contact_send
from tysiac.store.schema import contact_sends

from .contact_kit import (
    OPERATOR,
    GnuPG,
    MailSink,
    encrypted_part,
    free_port,
    gnupg,
    mail_sink,
    run_async,
)
from .contact_kit import contact_settings as kit_settings
from .harness import JSON_TYPE, FakeClock, LiveServer, live_server

# What an error body may carry (docs/protocol.md §2).
ERROR_FIELDS = ("code", "key", "message", "field", "params", "more")

STRANGER = "stranger@example.net"
PLAINTEXT = (
    "Content-Type: text/plain; charset=utf-8\r\n"
    "Content-Transfer-Encoding: 8bit\r\n\r\n"
    "Nick: Zażółć\r\nE-mail: ala@example.com\r\n\r\nDzień dobry, gra się zawiesiła.\r\n"
).encode()


@pytest.fixture(scope="module")
def keys() -> Iterator[GnuPG]:
    with gnupg() as keyring:
        keyring.generate(OPERATOR)
        keyring.generate(STRANGER)
        yield keyring


@pytest.fixture
def sink() -> Iterator[MailSink]:
    with mail_sink() as running:
        yield running


def contact_settings(keys: GnuPG, port: int, **more: Any) -> dict[str, Any]:
    return kit_settings(keys, port, **{"clock": FakeClock(), **more})


def post(server: LiveServer, message: Any, address: str = "203.0.113.7") -> httpx.Response:
    with server.http() as http:
        return http.post(
            "/api/contact", json={"message": message}, headers={"X-Forwarded-For": address}
        )


def error_of(response: httpx.Response) -> dict[str, str]:
    body: dict[str, dict[str, str]] = response.json()
    assert set(body) == {"error"}
    assert {"code", "key", "message"} <= set(body["error"]) <= {*ERROR_FIELDS}
    return body["error"]


def test_an_encrypted_message_reaches_the_operator_unchanged_and_decrypts(
    tmp_path: Path, keys: GnuPG, sink: MailSink
) -> None:
    armored = keys.encrypt(PLAINTEXT, OPERATOR)
    with live_server(tmp_path, **contact_settings(keys, sink.port)) as server:
        response = post(server, armored)
        assert response.status_code == 200, response.text
        assert response.json()["sent"] is True
        assert "Wiadomość wysłana" in response.json()["message"]
    assert len(sink.received) == 1
    mail = sink.received[0]
    assert mail.sender == "tysiac@example.org"
    assert mail.recipients == [OPERATOR]
    assert mail.message["Subject"] == "Tysiąc: wiadomość z formularza kontaktowego"
    assert mail.message["From"] == "tysiac@example.org"
    assert mail.message["To"] == OPERATOR
    relayed = encrypted_part(mail.message)
    assert relayed.strip().replace("\r\n", "\n") == armored.strip()
    assert keys.decrypt(relayed) == PLAINTEXT
    # Nothing but the ciphertext went out: no address, no plaintext, no hash.
    raw = mail.message.as_string()
    assert "203.0.113.7" not in raw and "Zażółć" not in raw


def test_the_page_learns_the_key_and_its_fingerprint(
    tmp_path: Path, keys: GnuPG, sink: MailSink
) -> None:
    settings = contact_settings(keys, sink.port)
    with live_server(tmp_path, **settings) as server, server.http() as http:
        info = http.get("/api/contact").json()
        key = http.get("/klucz.asc")
        page = http.get("/kontakt")
    expected = keys.fingerprint(OPERATOR)
    assert info["configured"] is True
    assert info["fingerprint"].replace(" ", "") == expected
    assert info["fingerprint"] == " ".join(expected[i : i + 4] for i in range(0, 40, 4))
    assert info["key_url"] == "/klucz.asc"
    assert info["per_day"] == 5
    assert info["key"] == keys.export(OPERATOR).decode()
    assert key.status_code == 200
    assert key.headers["content-type"].startswith("text/plain")
    assert key.text == keys.export(OPERATOR).decode()
    assert page.status_code == 200 and "Kontakt" in page.text


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"{not json", 422, "malformed"),
        (b"[]", 422, "malformed"),
        (b'{"message": 5}', 422, "malformed"),
        (b'{"message": null}', 422, "malformed"),
        (b'{"text": "hello"}', 422, "malformed"),
        (b'{"message": "x", "nick": "Ala"}', 422, "malformed"),
        (b'{"message": "Dzie\xc5\x84 dobry"}', 400, "not_encrypted"),
        (b'{"message": "hello"}', 400, "not_encrypted"),
        (
            json.dumps({"message": "-----BEGIN PGP MESSAGE-----\n\n-----END PGP MESSAGE-----"}),
            400,
            "not_encrypted",
        ),
        (b'{"message": "' + b"A" * (64 * 1024 + 1) + b'"}', 413, "too_large"),
        (b"{" + b" " * (200 * 1024) + b"}", 413, "too_large"),
    ],
)
def test_bad_bodies_are_refused_and_nothing_is_sent(
    tmp_path: Path, keys: GnuPG, sink: MailSink, body: bytes | str, status: int, code: str
) -> None:
    with live_server(tmp_path, **contact_settings(keys, sink.port)) as server:
        with server.http() as http:
            response = http.post("/api/contact", content=body, headers=JSON_TYPE)
        assert response.status_code == status, response.text
        assert error_of(response)["code"] == code
        assert error_of(response)["message"]
    assert sink.received == []


def _rearmored(armored: str, change: Any) -> str:
    """The same message with its packets changed and a correct checksum."""
    data = openpgp.dearmor(armored, openpgp.MESSAGE)
    return openpgp.armor(openpgp.MESSAGE, change(data))


def _bad_messages(keys: GnuPG) -> dict[str, tuple[str, str]]:
    good = keys.encrypt(PLAINTEXT, OPERATOR)
    lines = good.strip().split("\n")
    data_line = next(i for i, line in enumerate(lines) if i > 1 and not line.startswith("="))
    bad_base64 = [*lines]
    bad_base64[data_line] = "*" + bad_base64[data_line][1:]
    checksum = next(i for i, line in enumerate(lines) if line.startswith("="))
    bad_crc = [*lines]
    bad_crc[checksum] = "=AAAA" if lines[checksum] != "=AAAA" else "=AAAB"
    literal = keys.run("--armor", "--compress-algo", "none", "--store", data=PLAINTEXT)
    signed = keys.run(
        "--armor",
        "--pinentry-mode",
        "loopback",
        "--passphrase",
        "",
        "-u",
        OPERATOR,
        "--sign",
        data=PLAINTEXT,
    )
    symmetric = keys.run(
        "--armor",
        "--pinentry-mode",
        "loopback",
        "--passphrase",
        "secret",
        "--symmetric",
        data=PLAINTEXT,
    )
    encrypted_and_extra = _rearmored(
        good, lambda data: data + openpgp.dearmor(literal.decode(), openpgp.MESSAGE)
    )
    return {
        "no armor": ("hello, operator", "not_encrypted"),
        "a public key": (keys.export(OPERATOR).decode(), "not_encrypted"),
        "bad base64": ("\n".join(bad_base64), "not_encrypted"),
        "bad checksum": ("\n".join(bad_crc), "not_encrypted"),
        "no blank line after the header": (
            good.replace("-----\n\n", "-----\n", 1),
            "not_encrypted",
        ),
        "text around the armor": ("Hi!\n" + good, "not_encrypted"),
        "literal data": (literal.decode(), "not_encrypted"),
        "signed only": (signed.decode(), "not_encrypted"),
        "password only": (symmetric.decode(), "not_encrypted"),
        "truncated packet": (_rearmored(good, lambda data: data[:-5]), "not_encrypted"),
        "truncated header": (_rearmored(good, lambda data: data[:1]), "not_encrypted"),
        "a packet after the data": (encrypted_and_extra, "not_encrypted"),
        "session key only": (
            _rearmored(good, lambda data: data[: 2 + data[1]]),
            "not_encrypted",
        ),
        "for someone else": (keys.encrypt(PLAINTEXT, STRANGER), "wrong_key"),
    }


def test_anything_but_a_message_encrypted_to_the_operator_is_refused(
    tmp_path: Path, keys: GnuPG, sink: MailSink
) -> None:
    refused = {}
    with live_server(tmp_path, **contact_settings(keys, sink.port)) as server:
        for name, (message, code) in _bad_messages(keys).items():
            response = post(server, message)
            refused[name] = (response.status_code, error_of(response)["code"])
            expected = (400, code)
            assert refused[name] == expected, (name, response.text)
        # None of them used the quota: five good ones still go through.
        for _ in range(5):
            assert post(server, keys.encrypt(PLAINTEXT, OPERATOR)).status_code == 200
    assert len(sink.received) == 5


def test_five_a_day_per_address_then_a_clear_refusal_then_again_after_a_day(
    tmp_path: Path, keys: GnuPG, sink: MailSink
) -> None:
    clock = FakeClock()
    armored = keys.encrypt(PLAINTEXT, OPERATOR)
    with live_server(tmp_path, **contact_settings(keys, sink.port, clock=clock)) as server:
        for _ in range(5):
            assert post(server, armored, "198.51.100.1").status_code == 200
            clock.advance(hours=1)
        refused = post(server, armored, "198.51.100.1")
        assert refused.status_code == 429
        assert error_of(refused) == {
            "code": "contact_limit",
            "key": "error.contact_limit",
            "message": "Z Twojego adresu wysłano już 5 wiadomości w ciągu doby (tyle wynosi"
            " limit). Spróbuj jutro albo napisz do operatora e-mailem.",
            "params": {"limit": 5},
        }
        # Another address is not affected.
        assert post(server, armored, "198.51.100.2").status_code == 200
        # An IPv6 address counts by its /64.
        for host in range(1, 6):
            assert post(server, armored, f"2001:db8:1:2::{host}").status_code == 200
        assert post(server, armored, "2001:db8:1:2::99").status_code == 429
        # 24 hours after the first one, one place is free again; the next is refused.
        clock.advance(hours=19, seconds=1)
        assert post(server, armored, "198.51.100.1").status_code == 200
        assert post(server, armored, "198.51.100.1").status_code == 429
        clock.advance(hours=4)
        assert post(server, armored, "198.51.100.1").status_code == 200
    assert len(sink.received) == 5 + 1 + 5 + 1 + 1


def test_old_rows_are_deleted_and_only_hashes_are_kept(
    tmp_path: Path, keys: GnuPG, sink: MailSink
) -> None:
    clock = FakeClock()
    armored = keys.encrypt(PLAINTEXT, OPERATOR)
    with live_server(tmp_path, **contact_settings(keys, sink.port, clock=clock)) as server:
        for address in ("198.51.100.1", "198.51.100.2"):
            assert post(server, armored, address).status_code == 200
        rows = run_async(_rows(server))
        assert len(rows) == 2
        assert all(len(ip) == 64 and "198.51" not in ip for ip, _ in rows)
        clock.advance(hours=25)
        for _ in range(250):  # the sweeper (every 20 ms here) forgets them without a send
            if not run_async(_rows(server)):
                break
            time.sleep(0.02)
        assert run_async(_rows(server)) == []
        assert post(server, armored, "198.51.100.3").status_code == 200
        assert len(run_async(_rows(server))) == 1


async def _rows(server: LiveServer) -> list[tuple[str, Any]]:
    engine = backend.create_engine(server.settings.database_url)
    try:
        async with engine.connect() as conn:
            result = await conn.execute(select(contact_sends.c.ip, contact_sends.c.at))
            return [(row.ip, row.at) for row in result]
    finally:
        await engine.dispose()


def test_forget_old_contact_sends_and_the_reservation(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = backend.create_engine(f"sqlite+aiosqlite:///{tmp_path / 'store.db'}")
        await backend.migrate(engine)
        now = FakeClock().now
        async with engine.begin() as conn:
            assert await reserve_contact_send(conn, "a", now, 2) is not None
            assert await reserve_contact_send(conn, "a", now, 2) is not None
            assert await reserve_contact_send(conn, "a", now, 2) is None  # the third: refused
            assert await reserve_contact_send(conn, "b", now, 2) is not None
            clock = FakeClock(now)
            clock.advance(hours=24)
            assert await forget_old_contact_sends(conn, clock.now) == 3
            assert await conn.scalar(select(func.count()).select_from(contact_sends)) == 0
        await engine.dispose()

    run_async(scenario())


@pytest.mark.parametrize("failure", ["server down", "server refuses"])
def test_a_failed_relay_says_so_and_does_not_use_the_quota(
    tmp_path: Path, keys: GnuPG, sink: MailSink, failure: str
) -> None:
    armored = keys.encrypt(PLAINTEXT, OPERATOR)
    port = free_port() if failure == "server down" else sink.port
    sink.refuse = failure == "server refuses"
    with live_server(tmp_path, **contact_settings(keys, port, contact_per_day=1)) as server:
        for _ in range(3):
            response = post(server, armored)
            assert response.status_code == 502, response.text
            assert error_of(response)["code"] == "relay_failed"
            assert "Spróbuj ponownie" in error_of(response)["message"]
        assert run_async(_rows(server)) == []
    assert sink.received == []
    # Once mail works again, the one message of the day goes through.
    sink.refuse = False
    with live_server(tmp_path, **contact_settings(keys, sink.port, contact_per_day=1)) as server:
        assert post(server, armored).status_code == 200
        assert post(server, armored).status_code == 429
    assert len(sink.received) == 1


@pytest.mark.parametrize("missing", ["operator_pgp_key", "smtp_host", "operator_email", "all"])
def test_not_configured_says_so(tmp_path: Path, keys: GnuPG, missing: str) -> None:
    settings = {} if missing == "all" else {**contact_settings(keys, 25), missing: None}
    with live_server(tmp_path, **settings) as server, server.http() as http:
        info = http.get("/api/contact").json()
        assert info["configured"] is False
        response = http.post("/api/contact", json={"message": keys.encrypt(b"x", OPERATOR)})
        assert response.status_code == 503
        assert error_of(response)["code"] == "contact_off"
        assert "nie jest skonfigurowany" in error_of(response)["message"]
        key = http.get("/klucz.asc")
        if missing in ("operator_pgp_key", "all"):
            assert key.status_code == 404 and error_of(key)["code"] == "not_found"
            assert info["fingerprint"] is None and info["key"] is None
        else:  # the key is still published for e-mail written by hand
            assert key.status_code == 200 and info["fingerprint"]


def test_an_unusable_key_file_counts_as_not_configured(tmp_path: Path, keys: GnuPG) -> None:
    secret = keys.run(
        "--armor",
        "--pinentry-mode",
        "loopback",
        "--passphrase",
        "",
        "--export-secret-keys",
        OPERATOR,
    )
    # A secret key block dressed up as a public one: the server will not publish it.
    disguised = secret.decode().replace("PRIVATE KEY BLOCK", "PUBLIC KEY BLOCK")
    settings = contact_settings(keys, 25, operator_pgp_key=disguised)
    with live_server(tmp_path, **settings) as server, server.http() as http:
        assert http.get("/api/contact").json()["configured"] is False
        assert http.get("/klucz.asc").status_code == 404


def test_the_wkd_hash_matches_gnupgs_documented_example() -> None:
    assert openpgp.wkd_hash("Joe.Doe") == "iy9q119eutrkn8s1mk4r39qejnbu3n5q"


def test_web_key_directory_serves_the_operators_key_on_the_operators_domain(
    tmp_path: Path, keys: GnuPG
) -> None:
    local = OPERATOR.partition("@")[0]
    hashed = openpgp.wkd_hash(local)
    assert hashed == keys.wkd_hash(OPERATOR)
    path = f"/.well-known/openpgpkey/hu/{hashed}?l={local}"
    binary = keys.export(OPERATOR, armored=False)
    settings = contact_settings(keys, 25, public_url="https://example.org")
    with live_server(tmp_path, **settings) as server, server.http() as http:
        found = http.get(path)
        assert found.status_code == 200
        assert found.headers["content-type"] == "application/octet-stream"
        assert found.content == binary
        policy = http.get("/.well-known/openpgpkey/policy")
        assert policy.status_code == 200 and policy.content == b""
        other = http.get(f"/.well-known/openpgpkey/hu/{openpgp.wkd_hash('someone')}")
        assert other.status_code == 404 and error_of(other)["code"] == "not_found"


def test_web_key_directory_by_the_request_host_when_no_public_url(
    tmp_path: Path, keys: GnuPG
) -> None:
    hashed = openpgp.wkd_hash("operator")
    with live_server(tmp_path, **contact_settings(keys, 25)) as server, server.http() as http:
        path = f"/.well-known/openpgpkey/hu/{hashed}"
        assert http.get(path, headers={"Host": "example.org"}).status_code == 200
        assert http.get(path, headers={"Host": "EXAMPLE.org:8443"}).status_code == 200
        assert http.get(path).status_code == 404  # 127.0.0.1 is not the operator's domain
        policy = "/.well-known/openpgpkey/policy"
        assert http.get(policy, headers={"Host": "example.org"}).status_code == 200
        assert http.get(policy).status_code == 404


def test_web_key_directory_is_off_for_another_domain(tmp_path: Path, keys: GnuPG) -> None:
    settings = contact_settings(keys, 25, public_url="https://tysiac.example.org")
    with live_server(tmp_path, **settings) as server, server.http() as http:
        hashed = openpgp.wkd_hash("operator")
        assert http.get(f"/.well-known/openpgpkey/hu/{hashed}").status_code == 404
        assert http.get("/.well-known/openpgpkey/policy").status_code == 404
        # The key itself is still published on the site.
        assert http.get("/klucz.asc").status_code == 200
