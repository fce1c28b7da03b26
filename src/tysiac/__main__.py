"""``tysiac``: the operator's command. ``tysiac admin …`` (see ``tysiac admin --help``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["admin"]:
        from tysiac.server import admin

        return admin.main(args[1:])
    print("usage: tysiac admin {log,blocks,unblock,delete,stats} …", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
