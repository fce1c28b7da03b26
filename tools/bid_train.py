"""Fit the strong bot's bidding model (``tysiac/bots/bidding.py``) on hands played by
``tools/bid_data.py`` and write its weights to ``src/tysiac/bots/bidding.json``.

    python tools/bid_train.py --data 3=bids-3.jsonl [--data 4=bids-4.jsonl ...] [--check]

The weights of a number of players not given by ``--data`` are kept as the weights file
has them, so one number of players can be refitted without the others' data.

For every hand and every bid ``b`` of the grid, the declarer's label is what it would
have scored winning the auction at ``b``: what it scored, when the contract it declared
was ``b`` or more; else ``b`` made or missed by the points it took (cards and
marriages), as it would have had to declare ``b``. A defender's label is its score
change. The values are fitted by ridge regression on ``bidding.features`` (standardised;
the penalty below), the chance of taking ``b`` by logistic regression, on four fifths of
the hands; the last fifth is held out and reported, a line a bid: the root mean squared
error of the model's value against the search's own (``strong._worth``: the chance times
the bid less the miss) and a constant's, the Brier score of the model's chance against
the search's share of layouts, and the share of the hands that took the bid.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from tysiac.bots import bidding

LOWEST, STEP, HIGHEST = 100, 10, 250
RIDGE = 10.0  # the penalty on the standardised weights
HELD_OUT = 5  # every fifth hand (by index) is held out
OUT = Path(__file__).resolve().parents[1] / "src" / "tysiac" / "bots" / "bidding.json"


def read(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def declaring_label(record: dict[str, Any], bid: int) -> float:
    me = record["declarer"]
    if record["contract"] >= bid:
        return float(record["delta"][me])
    took = record["points"][me] + record["melds"][me]
    return float(bid if took >= bid else -bid)


class Standardised:
    """The columns of ``x`` but the first (the constant) scaled to mean 0 and spread 1, so
    one penalty fits all; ``raw`` turns weights fitted on them back into raw weights."""

    def __init__(self, x: np.ndarray) -> None:
        self.mean = x[:, 1:].mean(axis=0)
        self.scale = x[:, 1:].std(axis=0)
        self.scale[self.scale == 0] = 1.0
        self.z = np.hstack([np.ones((len(x), 1)), (x[:, 1:] - self.mean) / self.scale])

    def raw(self, w: np.ndarray) -> list[float]:
        raw = np.empty_like(w)
        raw[1:] = w[1:] / self.scale
        raw[0] = w[0] - float(np.sum(w[1:] * self.mean / self.scale))
        return [round(float(v), 6) for v in raw]


def penalty(size: int) -> np.ndarray:
    """``RIDGE`` on every weight but the constant (a bid no hand makes keeps it finite)."""
    p = RIDGE * np.eye(size)
    p[0, 0] = 1e-6
    return p


def ridge(x: np.ndarray, y: np.ndarray) -> list[float]:
    """Least squares with ``penalty``."""
    s = Standardised(x)
    return s.raw(np.linalg.solve(s.z.T @ s.z + penalty(s.z.shape[1]), s.z.T @ y))


def logistic(x: np.ndarray, y: np.ndarray) -> list[float]:
    """Logistic regression with ``penalty``, by Newton's method."""
    s = Standardised(x)
    ridge_ = penalty(s.z.shape[1])
    w = np.zeros(s.z.shape[1])
    for _ in range(30):
        p = sigmoid(s.z @ w)
        hessian = s.z.T @ (s.z * (p * (1 - p))[:, None]) + ridge_
        w -= np.linalg.solve(hessian, s.z.T @ (p - y) + ridge_ @ w)
    return s.raw(w)


def sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -30, 30))))


def made_label(record: dict[str, Any], bid: int) -> float:
    """Whether the declarer took ``bid`` or more (cards and marriages)."""
    me = record["declarer"]
    return float(record["points"][me] + record["melds"][me] >= bid)


def split(records: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    train = [r for r in records if r["index"] % HELD_OUT]
    test = [r for r in records if not r["index"] % HELD_OUT]
    return train, test


def declarers(records: list[dict[str, Any]], bid: int) -> np.ndarray:
    return np.array(
        [bidding.features(r["dealt"][r["declarer"]], r["forecast"], bid) for r in records]
    )


def defenders(records: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Every defender's features and score change."""
    pairs = [
        (bidding.hand_features(r["dealt"][seat]), float(r["delta"][seat]))
        for r in records
        for seat in range(r["players"])
        if seat != r["declarer"] and r["dealt"][seat]  # four players: the dealer sits out
    ]
    return np.array([f for f, _ in pairs]), np.array([d for _, d in pairs])


def rmse(a: np.ndarray, b: np.ndarray | float) -> float:
    return float(np.sqrt(np.mean((a - b) ** 2)))


def fit(records: list[dict[str, Any]], report: list[str]) -> dict[str, Any]:
    """The weights for one number of players, and a line a bid on the held-out hands."""
    played = [r for r in records if r["end"] == "played"]
    train, test = split(played)
    declare: list[list[float]] = []
    chance: list[list[float]] = []
    report.append("  bid  value RMSE: model search constant   chance Brier: model search   made")
    for bid in range(LOWEST, HIGHEST + 1, STEP):
        x, xt = declarers(train, bid), declarers(test, bid)
        y = np.array([declaring_label(r, bid) for r in train])
        yt = np.array([declaring_label(r, bid) for r in test])
        declare.append(ridge(x, y))
        chance.append(logistic(x, np.array([made_label(r, bid) for r in train])))
        made = np.array([made_label(r, bid) for r in test])
        searched = xt[:, bidding.NAMES.index("forecast_chance")]  # the search's own chance
        report.append(
            f"  {bid}  {rmse(xt @ declare[-1], yt):17.1f} {rmse((2 * searched - 1) * bid, yt):6.1f}"
            f" {rmse(yt, float(y.mean())):8.1f}"
            f"  {np.mean((sigmoid(xt @ chance[-1]) - made) ** 2):19.3f}"
            f" {np.mean((searched - made) ** 2):6.3f}  {made.mean():5.0%}"
        )
    x, y = defenders(train)
    xt, yt = defenders(test)
    defend = ridge(x, y)
    report.append(
        f"  defending: value RMSE model {rmse(xt @ defend, yt):.1f},"
        f" constant {rmse(yt, float(y.mean())):.1f}; mean {yt.mean():+.1f}"
    )
    return {"declare": declare, "made": chance, "defend": defend, "hands": len(played)}


def kept(path: Path) -> dict[str, Any]:
    """The weights ``path`` already holds, by number of players, where they were fitted on
    the same features and bids (else none: everything is refitted)."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text("utf-8"))
    same = (data["names"], data["lowest"], data["step"]) == (list(bidding.NAMES), LOWEST, STEP)
    return dict(data["players"]) if same else {}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", action="append", required=True, help="PLAYERS=FILE.jsonl")
    parser.add_argument("--check", action="store_true", help="report only, write nothing")
    parser.add_argument("--out", type=Path, default=OUT, help="the weights file (%(default)s)")
    args = parser.parse_args(argv)
    fitted: dict[str, Any] = kept(args.out)
    for item in args.data:
        players, path = item.split("=", 1)
        report: list[str] = []
        fitted[players] = fit(read(path), report)
        print(f"{players} players, {fitted[players]['hands']} hands ({path}):")
        print("\n".join(report))
    if args.check:
        return 0
    fitted = {players: fitted[players] for players in sorted(fitted)}
    data = {"names": list(bidding.NAMES), "lowest": LOWEST, "step": STEP, "players": fitted}
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"-> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
