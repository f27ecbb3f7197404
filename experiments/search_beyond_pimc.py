"""αμ against plain PIMC at an equal time budget per declarer card: a duplicate match.

    python experiments/search_beyond_pimc.py --deals 300 [--seed 13] [--seconds 0.1]
        [--depth 2] [--level 2] [--workers 1] [--out FILE]

Both players are :class:`paston.bots.alphamu.AlphaMuPlayer` with the same ``--level``
(the same ``pimc`` settings for bidding, whist, discard, trump and the defenders' cards)
and the same budget of ``--seconds`` per declarer card with more than one legal card;
they differ only in the search depth of the declarer's cards:

- ``pimc``: depth 1, which is PIMC exactly (a tested property): it samples worlds in
  batches until the budget is spent (at least the level's card count, with no cap);
- ``amu``: depth ``--depth``: PIMC on 8 worlds first, then αμ on 8 worlds and again on
  as many as the time left allows, each run aborted at the deadline; it plays the last
  completed search (once the contract is made or beaten, PIMC by time, like ``pimc``).

Each seat's player is seeded by the deal and the seat, so the six seatings bid, whist,
discard and defend alike until a declarer's cards differ (common random numbers: the
difference measures the declarer's play, not the luck of the samples elsewhere). The
time per decision is equal by construction (both stop at the same deadline; the
printed medians and 99th percentiles show it), and PIMC gets as many more worlds as the
deeper search costs. Deals are those of ``paston tournament`` with the same seed (all six
seatings, :func:`paston.eval.tournament.play_duplicate_deal`). Prints the points per deal
of ``amu`` minus ``pimc`` with a bootstrap 95% interval, the make rates, both players'
median and 99th-percentile decision times, and the worlds each used. Run with
``PASTON_PIMC_THREADS=1`` (the search itself runs on one thread).

``--seconds 0`` compares at equal worlds instead (both the level's card count; the deep
search falls back to PIMC's card past 0.5 s): not an equal-time comparison, but what
searching deeper is worth when it costs nothing.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paston.actions import Action
from paston.bots.alphamu import AlphaMuPlayer
from paston.deal import Phase
from paston.eval import tournament
from paston.eval.stats import bootstrap_ci, summarize
from paston.eval.tournament import DealResultRow
from paston.views import DealView

SETTINGS: dict[str, Any] = {}
"""The run's settings, read by the players made in this process and its forked workers."""
TIMES: list[Timing] = []
SEATS: list[int] = []
MAX_WORLDS = 100_000
"""No cap on the worlds of a declarer card: each player samples while its budget lasts."""


@dataclass(frozen=True, slots=True)
class Timing:
    """One decision: which player, whether a declarer's card with a choice, its seconds,
    and for such cards the worlds and depth of the search it played."""

    player: str
    declarer_card: bool
    seconds: float
    worlds: int
    depth: int


class Timed:
    """A player that records the time of each of its decisions into ``TIMES``."""

    def __init__(self, label: str, player: AlphaMuPlayer) -> None:
        self.label, self.player, self.name = label, player, player.name

    def choose(self, view: DealView) -> Action:
        start = time.perf_counter()
        action = self.player.choose(view)
        seconds = time.perf_counter() - start
        card = view.phase is Phase.PLAY and view.seat == view.declarer and len(view.legal_actions) > 1
        TIMES.append(
            Timing(
                self.label,
                card,
                seconds,
                self.player.last_worlds if card else 0,
                self.player.last_depth if card else 0,
            )
        )
        return action


def make_player(name: str, *, seed: int | None = None, time_budget: float | None = None) -> Timed:
    """The tournament's player factory in this benchmark: ``amu:*`` searches deep, ``pimc:*``
    at depth 1. The tournament makes the players of a seating seat by seat; each is seeded
    by the deal and its seat (not by the seating, as ``paston tournament`` does), so the
    six seatings bid, whist and defend alike until a declarer's cards differ."""
    deep = name.startswith("amu")
    seat = SEATS.pop(0)
    player = AlphaMuPlayer(
        seed=(SETTINGS["seed"] * 1_000_003 + SETTINGS["deal"]) * 3 + seat,
        level=SETTINGS["level"],
        depth=SETTINGS["depth"] if deep else 1,
        card_seconds=SETTINGS["seconds"] or None,
        max_worlds=MAX_WORLDS,
    )
    return Timed("amu" if deep else "pimc", player)


def play(k: int) -> tuple[list[DealResultRow], list[Timing]]:
    """Deal ``k`` in its six seatings, and the decisions' times."""
    TIMES.clear()
    SETTINGS["deal"] = k
    SEATS[:] = [0, 1, 2] * 6  # the order in which play_duplicate_deal makes the players
    level = SETTINGS["level"]
    rows = tournament.play_duplicate_deal(k, f"amu:{level}", f"pimc:{level}", seed=SETTINGS["seed"])
    return rows, list(TIMES)


def deals(count: int, workers: int) -> Iterator[tuple[list[DealResultRow], list[Timing]]]:
    """Every deal's rows and times, in order of the deals."""
    if workers <= 1:
        for k in range(count):
            yield play(k)
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(play, range(count), chunksize=1)


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def declarer_differences(rows: list[list[DealResultRow]], a: str, b: str) -> list[float]:
    """Per deal with a declarer of each kind: the mean score of the ``a`` declarers minus
    that of the ``b`` declarers (the seatings bid alike, so the declarer is the same seat)."""
    out = []
    for deal_rows in rows:
        scores: dict[str, list[int]] = {a: [], b: []}
        for row in deal_rows:
            if row.declarer is not None:
                scores[row.arrangement[row.declarer]].append(row.scores[row.declarer])
        if scores[a] and scores[b]:
            out.append(statistics.fmean(scores[a]) - statistics.fmean(scores[b]))
    return out


def report(
    rows: list[list[DealResultRow]], times: list[Timing], args: argparse.Namespace, elapsed: float
) -> str:
    """The summary of the deals played so far."""
    a, b = f"amu:{args.level}", f"pimc:{args.level}"
    summary = summarize(rows, a, b)
    diff = [x - y for x, y in zip(summary[a].per_deal, summary[b].per_deal, strict=True)]
    lo, hi = bootstrap_ci(diff, seed=args.seed)
    budget = f"{args.seconds * 1000:.0f} ms" if args.seconds else "the level's worlds"
    lines = [
        f"amu (depth {args.depth}) - pimc (depth 1), {budget} per declarer card, "
        f"level {args.level}: {statistics.fmean(diff):+.2f} points per deal, 95% CI [{lo:+.2f}, {hi:+.2f}]",
        f"{len(rows)} of {args.deals} deals x 6 seatings, seed {args.seed}, {elapsed:.0f} s with "
        f"{args.workers} worker(s), load {os.getloadavg()[0]:.2f}",
    ]
    paired = declarer_differences(rows, a, b)
    if paired:
        plo, phi = bootstrap_ci(paired, seed=args.seed)
        lines.append(
            f"declarer's score, amu declaring - pimc declaring the same deal: "
            f"{statistics.fmean(paired):+.2f} "
            f"[{plo:+.2f}, {phi:+.2f}] over {len(paired)} deals with a declarer"
        )
    for label, name in (("amu", a), ("pimc", b)):
        s = summary[name]
        cards = [t for t in times if t.player == label and t.declarer_card]
        every = [t.seconds for t in times if t.player == label]
        if not cards:
            continue
        secs = [t.seconds for t in cards]
        deep = sum(1 for t in cards if t.depth > 1) / len(cards)
        lines.append(
            f"{label}: {s.mean:+.2f} per deal, made {s.make_rate:.1%} of {s.declared - s.surrendered}; "
            f"declarer cards {len(cards)}: median {1000 * statistics.median(secs):.1f} ms, "
            f"p99 {1000 * percentile(secs, 0.99):.1f} ms, worlds median "
            f"{statistics.median(t.worlds for t in cards):.0f}, searched deeper than 1: {deep:.0%}; "
            f"all {len(every)} decisions: median {1000 * statistics.median(every):.1f} ms, "
            f"p99 {1000 * percentile(every, 0.99):.1f} ms"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--seconds",
        type=float,
        default=0.1,
        help="budget per declarer card (0: the level's worlds, no budget)",
    )
    parser.add_argument("--depth", type=int, default=2, help="amu's depth (2 or 3)")
    parser.add_argument("--level", type=int, default=2, help="pimc level of both players' other decisions")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="also write the summary here (every 10 deals)")
    args = parser.parse_args()
    if args.level == 5:
        raise SystemExit("level 5 spends pimc's own card budget; use 1 to 4 (--seconds sets the budget)")
    SETTINGS.update(level=args.level, depth=args.depth, seconds=args.seconds, seed=args.seed)
    tournament.make_player = make_player  # type: ignore[assignment]
    rows: list[list[DealResultRow]] = []
    times: list[Timing] = []
    start = time.perf_counter()
    for deal_rows, deal_times in deals(args.deals, args.workers):
        rows.append(deal_rows)
        times.extend(deal_times)
        if args.out is not None and len(rows) % 10 == 0:
            args.out.write_text(
                report(rows, times, args, time.perf_counter() - start) + "\n", encoding="utf-8"
            )
    text = report(rows, times, args, time.perf_counter() - start)
    print(text, flush=True)
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
