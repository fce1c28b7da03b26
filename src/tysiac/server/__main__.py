"""``python -m tysiac.server``: serve the game (SQLite by default) on 127.0.0.1:8000."""

from __future__ import annotations

import argparse
import faulthandler
import signal
import sys

from tysiac.server.app import create_app
from tysiac.server.config import ConfigError, Settings
from tysiac.server.contact.operator_key import with_operator_key
from tysiac.server.serving import serve


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="tysiac-server",
        description="Serve the card game Tysiąc (1000) over HTTP and WebSocket.",
        epilog="Settings come from TYSIAC_* environment variables and the TOML file named by"
        " TYSIAC_CONFIG (--check-config prints them); by default games are kept in SQLite,"
        " in ./tysiac.db.",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default: %(default)s, this machine only; 0.0.0.0: every"
        " IPv4 interface)",
    )
    parser.add_argument(
        "--port", type=int, default=8000, help="TCP port to listen on (default: %(default)s)"
    )
    parser.add_argument(
        "--check-config", action="store_true", help="validate the configuration, print it, exit"
    )
    args = parser.parse_args()
    try:
        settings = with_operator_key(Settings.from_env())
    except ConfigError as error:
        print("Configuration error:", file=sys.stderr)
        for problem in error.problems:
            print(f"  - {problem}", file=sys.stderr)
        sys.exit(2)
    if args.check_config:
        for key, text in settings.describe():
            print(f"{key} = {text}")
        return
    # `kill -USR1 <pid>`: every thread's stack to stderr (the log), for a process that
    # hangs, e.g. one that does not stop on SIGTERM. Names of files and functions only.
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    # Logging, limits and timeouts: see the serving package (shared with the tests' LiveServer).
    serve(create_app(settings), settings, host=args.host, port=args.port)


if __name__ == "__main__":
    main()
