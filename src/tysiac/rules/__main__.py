"""Command line: ``python -m tysiac.rules replay [--jsonl]``, ``... record [FILE]`` and
``... demo``."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import TextIO

from .record import RecordError, read_record
from .replay import ReplayInputError, replay


def _replay_one(text: str) -> str:
    return json.dumps(replay(json.loads(text)), ensure_ascii=False)


def run_replay(jsonl: bool) -> int:
    if not jsonl:
        try:
            print(_replay_one(sys.stdin.read()))
        except (json.JSONDecodeError, ReplayInputError) as error:
            print(f"tysiac-rules: invalid input: {error}", file=sys.stderr)
            return 2
        return 0
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            output = _replay_one(line)
        except (json.JSONDecodeError, ReplayInputError) as error:
            sys.stdout.flush()
            print(f"tysiac-rules: invalid input on line {number}: {error}", file=sys.stderr)
            return 2
        sys.stdout.write(output + "\n")
    return 0


def run_record(file: TextIO) -> int:
    """Replay a game record and check it; a JSON summary, or exit 2 naming what is wrong."""
    try:
        with file:
            text = file.read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"tysiac-rules: cannot read the record: {error}", file=sys.stderr)
        return 2
    try:
        replayed = read_record(json.loads(text))
    except (json.JSONDecodeError, RecordError) as error:
        print(f"tysiac-rules: invalid record: {error}", file=sys.stderr)
        return 2
    summary = {
        "hands": len(replayed.hands),
        "scores": list(replayed.game.scores),
        "outcome": replayed.record["outcome"],
    }
    print(json.dumps(summary, ensure_ascii=False))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tysiac-rules", description="The rules of Tysiąc.")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_parser = commands.add_parser("replay", help="replay hands given as JSON on stdin")
    replay_parser.add_argument("--jsonl", action="store_true", help="one hand per line")
    record_parser = commands.add_parser(
        "record", help="replay a game record (docs/records.md) and check every result"
    )
    record_parser.add_argument(
        "file",
        nargs="?",
        type=argparse.FileType(encoding="utf-8"),
        default=sys.stdin,
        help="the record (JSON); standard input without it",
    )
    demo_parser = commands.add_parser("demo", help="watch computer players play a game")
    demo_parser.add_argument("--players", type=int, choices=(2, 3, 4), default=3)
    demo_parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    if args.command == "replay":
        return run_replay(args.jsonl)
    if args.command == "record":
        return run_record(args.file)
    from .demo import play_demo

    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    play_demo(args.players, rng, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
