"""The one configuration: a TOML file and TYSIAC_* variables, validated with clear errors."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tysiac.server.config import DOCUMENTED, ConfigError, Settings
from tysiac.server.security import ip_hash

from .harness import live_server

KEY = """-----BEGIN PGP PUBLIC KEY BLOCK-----

mDMEZ0000BYJKwYBBAHaRw8BAQdA
-----END PGP PUBLIC KEY BLOCK-----
"""


def test_nothing_set_is_a_working_default() -> None:
    settings = Settings.from_env({})
    assert settings.database_url == "sqlite+aiosqlite:///tysiac.db"
    assert settings.contact_configured is False and settings.stats_email is False
    assert settings.max_games_per_ip == 10 and settings.contact_per_day == 5


def test_a_file_and_the_environment_which_wins(tmp_path: Path) -> None:
    key_file = tmp_path / "klucz.asc"
    key_file.write_text(KEY)
    config = tmp_path / "tysiac.toml"
    config.write_text(
        f"""
operator_name = "Stowarzyszenie Przykład"
operator_email = "kontakt@example.org"
operator_pgp_key_file = "{key_file}"
smtp_host = "mail.example.org"
smtp_port = 465
smtp_security = "tls"
max_games_per_ip = 3
stats_email = true
allowed_origins = ["https://a.example.org", "https://b.example.org"]
public_url = "https://tysiac.example.org/"
"""
    )
    settings = Settings.from_env({"TYSIAC_CONFIG": str(config), "TYSIAC_MAX_GAMES_PER_IP": "7"})
    assert settings.operator_name == "Stowarzyszenie Przykład"
    assert settings.max_games_per_ip == 7  # the variable wins over the file
    assert settings.smtp_port == 465 and settings.stats_email is True
    assert settings.allowed_origins == ("https://a.example.org", "https://b.example.org")
    assert settings.public_url == "https://tysiac.example.org"
    assert settings.operator_pgp_key == KEY
    assert settings.contact_configured and settings.sender == "kontakt@example.org"


@pytest.mark.parametrize(
    ("environ", "problem"),
    [
        ({"TYSIAC_SMTP_PORT": "abc"}, "smtp_port (TYSIAC_SMTP_PORT): expected a number"),
        ({"TYSIAC_MAX_ACTIVE_GAMES": "0"}, "max_active_games (TYSIAC_MAX_ACTIVE_GAMES): must be"),
        ({"TYSIAC_STATS_EMAIL": "maybe"}, "stats_email (TYSIAC_STATS_EMAIL): expected true or"),
        ({"TYSIAC_STATS_EMAIL": "yes"}, "stats_email (TYSIAC_STATS_EMAIL): needs smtp_host"),
        ({"TYSIAC_DATABASE_URL": "mysql://x"}, "database_url (TYSIAC_DATABASE_URL): expected"),
        ({"TYSIAC_REDIS_URL": "http://x"}, "redis_url (TYSIAC_REDIS_URL): expected redis://"),
        ({"TYSIAC_PUBLIC_URL": "tysiac.example.org"}, "public_url (TYSIAC_PUBLIC_URL): expected"),
        ({"TYSIAC_HASHING_SECRET": "short"}, "hashing_secret (TYSIAC_HASHING_SECRET): use 32"),
        ({"TYSIAC_OPERATOR_EMAIL": "nobody"}, "operator_email (TYSIAC_OPERATOR_EMAIL): not an"),
        ({"TYSIAC_SMTP_SECURITY": "ssl"}, "smtp_security (TYSIAC_SMTP_SECURITY): expected"),
        ({"TYSIAC_SMTP_HOST": "mail.example.org"}, "mail_from (TYSIAC_MAIL_FROM): set it"),
        ({"TYSIAC_OPERATOR_PGP_KEY_FILE": "/nonexistent.asc"}, "cannot read it"),
        ({"TYSIAC_CONFIG": "/nonexistent.toml"}, "TYSIAC_CONFIG=/nonexistent.toml"),
    ],
)
def test_bad_values_are_named_with_their_variable(environ: dict[str, str], problem: str) -> None:
    with pytest.raises(ConfigError) as refused:
        Settings.from_env(environ)
    assert any(problem in line for line in refused.value.problems), refused.value.problems


def test_a_file_with_unknown_keys_or_a_key_that_is_not_a_key(tmp_path: Path) -> None:
    config = tmp_path / "tysiac.toml"
    config.write_text('smtp_hots = "typo"\nmax_games_per_ip = "ten"\n')
    with pytest.raises(ConfigError) as refused:
        Settings.from_env({"TYSIAC_CONFIG": str(config)})
    assert f"{config}: unknown setting 'smtp_hots'" in refused.value.problems
    not_a_key = tmp_path / "key.asc"
    not_a_key.write_text("hello")
    with pytest.raises(ConfigError) as refused:
        Settings.from_env({"TYSIAC_OPERATOR_PGP_KEY_FILE": str(not_a_key)})
    assert "not an armored OpenPGP public key" in str(refused.value)


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


def test_a_configured_hashing_secret_keys_the_address_hashes(tmp_path: Path) -> None:
    secret = "k" * 40
    with live_server(tmp_path, hashing_secret=secret) as server:
        server.create("Ala", 2)
    with sqlite3.connect(tmp_path / "test.db") as db:
        stored = db.execute("select creator_ip from games").fetchone()[0]
        made = db.execute("select count(*) from server_secrets where name='ip_hash_key'")
        assert made.fetchone() == (0,)  # none made: the configured one is used
    assert stored == ip_hash(secret, "127.0.0.1")


def test_the_readme_documents_every_setting() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for key in DOCUMENTED:
        variable = f"TYSIAC_{key.upper()}"
        short = "_" + key.upper().split("_", 1)[1]  # `TYSIAC_SMTP_USERNAME`, `_PASSWORD`
        assert f"`{variable}`" in readme or f"`{short}`" in readme, variable
