"""The one configuration: a TOML file and TYSIAC_* variables, validated with clear errors."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from tysiac.server.config import DOCUMENTED, ConfigError, Settings
from tysiac.server.contact.operator_key import with_operator_key
from tysiac.server.security import ip_hash

from .contact_kit import GnuPG, gnupg
from .harness import live_server

OPERATOR = "kontakt@example.org"
SIGNING_ONLY = "podpis@example.org"
EXPIRED = "stary@example.org"
REVOKED = "odwolany@example.org"
KEY_FILE = "TYSIAC_OPERATOR_PGP_KEY_FILE"
NO_ENCRYPTION = "operator_pgp_key_file (TYSIAC_OPERATOR_PGP_KEY_FILE): the key has no valid"


@pytest.fixture(scope="module")
def keys() -> Iterator[GnuPG]:
    """GnuPG's keys: a good one, one that only signs, one expired, one revoked."""
    with gnupg() as keyring:
        keyring.generate(OPERATOR)
        keyring.generate(SIGNING_ONLY, encryption=False)
        keyring.generate(EXPIRED, expires="2025-01-01", made="20240101T000000")
        keyring.generate(REVOKED)
        keyring.revoke(REVOKED)
        yield keyring


Load = Callable[[dict[str, str]], Settings]


@pytest.fixture
def load(monkeypatch: pytest.MonkeyPatch) -> Load:
    """The settings as the server loads them at start, from exactly these variables."""

    def loaded(environ: dict[str, str]) -> Settings:
        for name in [name for name in os.environ if name.upper().startswith("TYSIAC_")]:
            monkeypatch.delenv(name)
        for name, value in environ.items():
            monkeypatch.setenv(name, value)
        return with_operator_key(Settings.from_env())

    return loaded


def key_file(keys: GnuPG, tmp_path: Path, address: str) -> Path:
    path = tmp_path / f"{address}.asc"
    path.write_bytes(keys.export(address))
    return path


def test_nothing_set_is_a_working_default(load: Load) -> None:
    settings = load({})
    assert settings.database_url == "sqlite+aiosqlite:///tysiac.db"
    assert settings.contact_configured is False and settings.stats_email is False
    assert settings.max_games_per_ip == 10 and settings.contact_per_day == 5


def test_a_file_and_the_environment_which_wins(tmp_path: Path, keys: GnuPG, load: Load) -> None:
    key = key_file(keys, tmp_path, OPERATOR)
    config = tmp_path / "tysiac.toml"
    config.write_text(
        f"""
operator_name = "Stowarzyszenie Przykład"
operator_email = "kontakt@example.org"
operator_pgp_key_file = "{key}"
smtp_host = "mail.example.org"
smtp_port = 465
smtp_security = "tls"
smtp_password = "z pliku"
max_games_per_ip = 3
stats_email = true
allowed_origins = ["https://a.example.org", "https://b.example.org"]
public_url = "https://tysiac.example.org/"
""",
        encoding="utf-8",
    )
    settings = load(
        {
            "TYSIAC_CONFIG": str(config),
            "TYSIAC_MAX_GAMES_PER_IP": "7",
            "TYSIAC_SMTP_PASSWORD": "ze zmiennej",
            "TYSIAC_SMTP_USERNAME": "",  # empty: as if unset
        }
    )
    assert settings.operator_name == "Stowarzyszenie Przykład"
    assert settings.max_games_per_ip == 7  # the variable wins over the file
    assert settings.smtp_password is not None
    assert settings.smtp_password.get_secret_value() == "ze zmiennej"
    assert settings.smtp_username is None
    assert settings.smtp_port == 465 and settings.stats_email is True
    assert settings.allowed_origins == ("https://a.example.org", "https://b.example.org")
    assert settings.public_url == "https://tysiac.example.org"
    assert settings.operator_pgp_key == key.read_text()
    assert settings.contact_configured and settings.sender == "kontakt@example.org"


def test_allowed_origins_from_the_environment_are_comma_separated(load: Load) -> None:
    settings = load({"TYSIAC_ALLOWED_ORIGINS": " https://a.example.org , b,"})
    assert settings.allowed_origins == ("https://a.example.org", "b")


@pytest.mark.parametrize(
    ("environ", "problem"),
    [
        ({"TYSIAC_SMTP_PORT": "abc"}, "smtp_port (TYSIAC_SMTP_PORT): expected a number"),
        ({"TYSIAC_MAX_ACTIVE_GAMES": "0"}, "max_active_games (TYSIAC_MAX_ACTIVE_GAMES): must be"),
        ({"TYSIAC_HAND_PAUSE_SECONDS": "-1"}, "hand_pause_seconds (TYSIAC_HAND_PAUSE_SECONDS)"),
        ({"TYSIAC_STATS_EMAIL": "maybe"}, "stats_email (TYSIAC_STATS_EMAIL): expected true or"),
        ({"TYSIAC_STATS_EMAIL": "yes"}, "stats_email (TYSIAC_STATS_EMAIL): needs smtp_host"),
        ({"TYSIAC_DATABASE_URL": "mysql://x"}, "database_url (TYSIAC_DATABASE_URL): expected"),
        ({"TYSIAC_REDIS_URL": "http://x"}, "redis_url (TYSIAC_REDIS_URL): expected redis://"),
        ({"TYSIAC_PUBLIC_URL": "tysiac.example.org"}, "public_url (TYSIAC_PUBLIC_URL): expected"),
        ({"TYSIAC_HASHING_SECRET": "short"}, "hashing_secret (TYSIAC_HASHING_SECRET): use 32"),
        ({"TYSIAC_OPERATOR_EMAIL": "nobody"}, "operator_email (TYSIAC_OPERATOR_EMAIL): not an"),
        ({"TYSIAC_SMTP_SECURITY": "ssl"}, "smtp_security (TYSIAC_SMTP_SECURITY): expected"),
        ({"TYSIAC_SMTP_HOST": "mail.example.org"}, "mail_from (TYSIAC_MAIL_FROM): set it"),
        ({KEY_FILE: "/nonexistent.asc"}, "cannot read it"),
        ({"TYSIAC_CONFIG": "/nonexistent.toml"}, "TYSIAC_CONFIG=/nonexistent.toml"),
    ],
)
def test_bad_values_are_named_with_their_variable(
    environ: dict[str, str], problem: str, load: Load
) -> None:
    with pytest.raises(ConfigError) as refused:
        load(environ)
    assert any(problem in line for line in refused.value.problems), refused.value.problems


def test_every_problem_is_reported_at_once(load: Load) -> None:
    with pytest.raises(ConfigError) as refused:
        load(
            {
                "TYSIAC_SMTP_PORT": "abc",
                "TYSIAC_MAX_ACTIVE_GAMES": "0",
                "TYSIAC_HASHING_SECRET": "short-secret",
                "TYSIAC_SMTP_SECURITY": "ssl",
            }
        )
    named = [line.split(" ", 1)[0] for line in refused.value.problems]
    assert sorted(named) == ["hashing_secret", "max_active_games", "smtp_port", "smtp_security"]
    assert "short-secret" not in str(refused.value)  # a secret is never repeated
    # The checks of several settings together are reported together too.
    with pytest.raises(ConfigError) as refused:
        load(
            {
                "TYSIAC_DATABASE_URL": "postgresql+asyncpg://tysiac@db/tysiac",
                "TYSIAC_SMTP_HOST": "mail.example.org",
                "TYSIAC_STATS_EMAIL": "true",
            }
        )
    named = [line.split(" ", 1)[0] for line in refused.value.problems]
    assert named == ["hashing_secret", "mail_from", "stats_email"]


def test_a_file_with_unknown_keys_or_a_key_that_is_not_a_key(tmp_path: Path, load: Load) -> None:
    config = tmp_path / "tysiac.toml"
    # ``testing`` is no setting (tests hand create_app a Dealing): the file may not set it.
    config.write_text('smtp_hots = "typo"\nmax_games_per_ip = "ten"\ntesting = true\n')
    with pytest.raises(ConfigError) as refused:
        load({"TYSIAC_CONFIG": str(config)})
    assert refused.value.problems == [
        f"{config}: unknown setting 'smtp_hots'",
        f"{config}: unknown setting 'testing'",
        "max_games_per_ip (TYSIAC_MAX_GAMES_PER_IP): expected a number, got 'ten'",
    ]
    config.write_text("max_games_per_ip = [")
    with pytest.raises(ConfigError, match="TYSIAC_CONFIG="):
        load({"TYSIAC_CONFIG": str(config)})
    not_a_key = tmp_path / "key.asc"
    not_a_key.write_text("hello")
    with pytest.raises(ConfigError) as refused:
        load({KEY_FILE: str(not_a_key)})
    assert "not an armored OpenPGP public key" in str(refused.value)


def test_code_only_fields_never_come_from_the_environment(load: Load) -> None:
    settings = load({"TYSIAC_SWEEP_SECONDS": "0.5", "TYSIAC_OPERATOR_PGP_KEY": "x"})
    assert settings.sweep_seconds == 1.0
    assert settings.operator_pgp_key is None
    with pytest.raises(ValidationError):
        Settings(testing=True)  # no test knob is a setting: tests hand create_app a Dealing


def test_code_gives_its_settings_and_the_environment_is_not_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TYSIAC_MAX_GAMES_PER_IP", "3")
    monkeypatch.setenv("TYSIAC_SMTP_PORT", "not a number")
    settings = Settings(sweep_seconds=0.02, chat_per_minute=6)
    assert settings.max_games_per_ip == 10 and settings.smtp_port == 587
    assert settings.sweep_seconds == 0.02 and settings.chat_per_minute == 6
    with pytest.raises(ValidationError):
        Settings(sweep_secnods=0.02)  # a typo is refused, not ignored
    with pytest.raises(ValidationError):
        settings.chat_per_minute = 7  # type: ignore[misc]  # frozen
    changed = settings.model_copy(update={"forwarded_allow_ips": "127.0.0.1"})
    assert changed.forwarded_allow_ips == "127.0.0.1" and settings.forwarded_allow_ips is None
    monkeypatch.setenv("TYSIAC_SMTP_PORT", "2525")
    assert Settings.from_env().max_games_per_ip == 3  # from_env reads os.environ


def test_secrets_are_masked_when_printed() -> None:
    settings = Settings(smtp_password=SecretStr("tajne hasło"), hashing_secret="k" * 40)
    assert "tajne" not in repr(settings) and "k" * 40 not in str(settings)
    assert settings.hashing_secret is not None
    assert settings.hashing_secret.get_secret_value() == "k" * 40
    shown = dict(settings.describe())
    assert shown["smtp_password"] == shown["hashing_secret"] == "(set, hidden)"
    assert dict(Settings().describe())["smtp_password"] == ""


def test_the_server_refuses_to_start_and_check_config_masks_secrets(tmp_path: Path) -> None:
    bad = subprocess.run(
        [sys.executable, "-m", "tysiac.server"],
        env={"TYSIAC_SMTP_PORT": "abc", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2
    assert "Configuration error:" in bad.stderr and "TYSIAC_SMTP_PORT" in bad.stderr
    secret = "s3cret-password-that-must-not-show"
    shown = subprocess.run(
        [sys.executable, "-m", "tysiac.server", "--check-config"],
        env={
            "TYSIAC_SMTP_PASSWORD": secret,
            "TYSIAC_HASHING_SECRET": "h" * 40,
            "PATH": "/usr/bin:/bin",
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert secret not in shown.stdout and "h" * 40 not in shown.stdout
    assert "smtp_password = (set, hidden)" in shown.stdout
    assert "hashing_secret = (set, hidden)" in shown.stdout


# The operator's key: GnuPG makes it, Sequoia (pysequoia) judges it at start.


def test_a_key_that_cannot_encrypt_now_is_refused_at_start(
    tmp_path: Path, keys: GnuPG, load: Load
) -> None:
    refusals = {
        SIGNING_ONLY: f"{NO_ENCRYPTION} encryption subkey (none is marked for encryption",
        EXPIRED: f"{NO_ENCRYPTION} encryption subkey (expired 2025-01-01)",
        REVOKED: f"{NO_ENCRYPTION} encryption subkey (revoked ",
    }
    for address, problem in refusals.items():
        with pytest.raises(ConfigError) as refused:
            load({KEY_FILE: str(key_file(keys, tmp_path, address))})
        assert len(refused.value.problems) == 1
        assert refused.value.problems[0].startswith(problem), refused.value.problems
    revoked = re.search(r"revoked (\d{4}-\d{2}-\d{2})\)", str(refused.value))
    assert revoked is not None
    today = datetime.now(UTC).date()
    assert revoked[1] in {str(today), str(today - timedelta(days=1))}
    # ``--check-config`` and the server say so and stop.
    checked = subprocess.run(
        [sys.executable, "-m", "tysiac.server", "--check-config"],
        env={KEY_FILE: str(key_file(keys, tmp_path, EXPIRED)), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 2
    assert refusals[EXPIRED] in checked.stderr


def test_a_secret_key_file_is_refused(tmp_path: Path, keys: GnuPG, load: Load) -> None:
    secret = keys.run(
        *("--armor", "--pinentry-mode", "loopback", "--passphrase", ""),
        *("--export-secret-keys", OPERATOR),
    )
    path = tmp_path / "sekret.asc"
    path.write_bytes(secret.replace(b"PRIVATE KEY BLOCK", b"PUBLIC KEY BLOCK"))
    with pytest.raises(ConfigError, match="a secret key: give the public key only"):
        load({KEY_FILE: str(path)})


def test_a_key_file_with_a_utf8_armor_comment_is_read(
    tmp_path: Path, keys: GnuPG, load: Load
) -> None:
    first, rest = keys.export(OPERATOR).decode().split("\n", 1)
    text = f"{first}\nComment: Zażółć gęślą jaźń, klucz operatora\n{rest}"
    path = tmp_path / "klucz.asc"
    path.write_text(text, encoding="utf-8")
    settings = load({KEY_FILE: str(path)})
    assert settings.operator_pgp_key == text


def test_a_configured_hashing_secret_keys_the_address_hashes(tmp_path: Path) -> None:
    secret = "k" * 40
    with live_server(tmp_path, hashing_secret=secret) as server:
        server.create("Ala", 2)
    with sqlite3.connect(tmp_path / "test.db") as db:
        stored = db.execute("select creator_ip from games").fetchone()[0]
        made = db.execute("select count(*) from server_values where name='ip_hash_key'")
        assert made.fetchone() == (0,)  # none made: the configured one is used
    assert stored == ip_hash(secret, "127.0.0.1")


def manual_settings() -> list[tuple[list[str], str, str]]:
    """The rows of docs/operating.md's settings table: (variables, default, meaning)."""
    manual = (Path(__file__).resolve().parents[2] / "docs" / "operating.md").read_text()
    section = manual.split("## Settings", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if not line.startswith("| `TYSIAC_"):
            continue
        names, default, meaning = (cell.strip() for cell in line.strip("| ").split(" | "))
        found = re.findall(r"`(_[A-Z_]+)`", names.replace("`TYSIAC_", "`_"))
        # `TYSIAC_SMTP_USERNAME`, `_PASSWORD`: the others share the first one's prefix.
        prefix = "TYSIAC" + found[0].rsplit("_", 1)[0]
        variables = ["TYSIAC" + found[0]] + [prefix + short for short in found[1:]]
        rows.append((variables, default, meaning))
    return rows


def shown(value: object) -> str:
    """A default as the settings table writes it: `10` for 10.0, `false` for False."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def test_the_operators_manual_documents_every_setting() -> None:
    """Each documented field has one row: its default (when the row gives one in
    backticks), and a meaning that starts with the field's description."""
    rows = manual_settings()
    listed = [variable for variables, _, _ in rows for variable in variables]
    assert sorted(listed) == sorted(f"TYSIAC_{key.upper()}" for key in DOCUMENTED)
    for variables, default, meaning in rows:
        field = DOCUMENTED[variables[0].removeprefix("TYSIAC_").lower()]
        literal = re.fullmatch(r"`([^`]*)`", default)
        if literal:
            assert literal[1] == shown(field.default), variables[0]
        description = str(field.description).replace("`", "")
        assert meaning.replace("`", "").startswith(description), variables[0]
