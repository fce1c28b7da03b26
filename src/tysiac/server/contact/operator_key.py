"""The operator's key file, read and checked when the server starts.

``with_operator_key`` reads ``operator_pgp_key_file`` (UTF-8: armor headers may hold
any letters) and checks it as ``openpgp.public_key`` does: one public key that can
encrypt now. A key that cannot stops the server (``ConfigError``, one line naming the
setting) before it serves, and ``--check-config`` says why. A key given as text by
code is checked where it is used (``routes.operator_key``).
"""

from __future__ import annotations

from pathlib import Path

from tysiac.server.config import ConfigError, Settings
from tysiac.server.config_errors import named
from tysiac.server.contact.openpgp import OpenPGPError, public_key

SETTING = "operator_pgp_key_file"


def with_operator_key(settings: Settings) -> Settings:
    """``settings`` with the key file's text as ``operator_pgp_key``; raises ConfigError."""
    path = settings.operator_pgp_key_file
    if path is None:
        return settings
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        problem = "not UTF-8 text: expected an armored key (gpg --armor --export)"
    except OSError as error:
        problem = f"cannot read it: {error}"
    else:
        try:
            public_key(text)
        except OpenPGPError as error:
            problem = str(error)
        else:
            return settings.model_copy(update={"operator_pgp_key": text})
    raise ConfigError([named(SETTING, problem)])
