"""How well should PIMC do at Paston? The three game-tree properties of Long, Sturtevant,
Buro and Furtak (AAAI 2010), measured on Paston's card play with the exact solver.

    python experiments/pimc_diagnostics.py [--bidders heuristic pimc] [--deals 2000 300] [--seed 1]
                                           [--playouts 2] [--tricks-left 2 3 4 5 6 8 10]

Deals are dealt at random and bid, discarded, named and defended by each of ``--bidders``
(``heuristic``, ``pimc`` or ``pimc:N``, in turn), so the declarer and the contract are those the game
produces; the same bots then play the cards. On the deals that reach card play:

- bias: how often the declarer makes the contract (6+ tricks) double-dummy from the first
  lead (declarer against the defenders), under max^n with R7 scores (three-hand play),
  and in the bots' actual play; the distribution of the declarer's double-dummy tricks;
- leaf correlation: random playouts from the first lead to nodes with ``k`` tricks left
  (every node of that trick where the player to move has 2+ legal cards), and the same
  nodes of the bots' own play; at each, the share of nodes whose children all have the
  same value (the same declarer result, the same declarer tricks, the same max^n score
  vector of R7, the same R7 score for the player to move), solved exactly;
- disambiguation: at the start of each trick, the number of hidden-card distributions
  consistent with a seat's view (hand sizes and shown voids, as ``Knowledge`` reads the
  view), counted exactly, for the declarer and a defender; and how often a seat's count
  shrank between two of its decisions (the paper's definition, read directly).

Everything is seeded: the same arguments print the same table.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from paston.actions import Action
from paston.bots.base import make_player
from paston.bots.knowledge import PRIKUP_SLOT, Knowledge, Slot
from paston.cards import FULL_DECK_MASK, SUIT_MASKS
from paston.deal import Deal, Phase
from paston.solver import MAXN_MIN_MEMORY_MB, Position, Solver

# --- sampling deals as the game produces them ---------------------------------------------


@dataclass(frozen=True, slots=True)
class SampledDeal:
    """One deal bid and played by bots: ``start`` is the state at the first lead (``None``
    when the deal ended without card play), ``final`` the finished deal, ``ending`` how it
    ended (``played``, or the outcome/redeal text)."""

    start: Deal | None
    final: Deal
    ending: str


def sample_deals(n: int, seed: int, bidders: str = "heuristic") -> list[SampledDeal]:
    """``n`` random deals, each bid and played to its end by three ``bidders`` bots.

    >>> [d.ending for d in sample_deals(2, 5)] == [d.ending for d in sample_deals(2, 5)]
    True
    """
    rng = random.Random(f"pimc-diagnostics:{seed}")
    out: list[SampledDeal] = []
    for _ in range(n):
        deal = Deal.random(rng, dealer=rng.randrange(3))
        players = [make_player(bidders, seed=rng.getrandbits(64)) for _ in range(3)]
        start: Deal | None = None
        while not deal.is_over:
            if start is None and deal.phase is Phase.PLAY:
                start = deal.clone()
            seat = deal.to_move
            assert seat is not None
            deal.apply(players[seat].choose(deal.view(seat)), seat)
        if start is not None:
            ending = "played"
        elif deal.result is not None:
            ending = str(deal.result.outcome)
        else:
            ending = str(deal.redeal)
        out.append(SampledDeal(start, deal, ending))
    return out


def make_solver(memory_mb: float = 16) -> Solver:
    """A solver large enough for max^n."""
    return Solver(memory_mb=max(memory_mb, MAXN_MIN_MEMORY_MB))


# --- bias ---------------------------------------------------------------------------------


@dataclass(slots=True)
class Bias:
    """The declarer's chances over the deals that reached card play."""

    played: int = 0
    three_hand: int = 0
    made_dd: int = 0
    made_dd_three: int = 0  # three-hand deals only
    made_maxn: int = 0  # three-hand deals only
    made_actual: int = 0
    tricks_dd: Counter[int] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)

    @property
    def p_made_dd(self) -> float:
        return self.made_dd / self.played if self.played else math.nan

    @property
    def p_made_maxn(self) -> float:
        return self.made_maxn / self.three_hand if self.three_hand else math.nan

    @property
    def p_made_actual(self) -> float:
        return self.made_actual / self.played if self.played else math.nan


def measure_bias(deals: Sequence[SampledDeal], solver: Solver) -> Bias:
    """Declarer makes (6+ tricks) double-dummy, under max^n, and in the bots' play."""
    bias = Bias()
    for d in deals:
        bias.endings[d.ending] += 1
        if d.start is None:
            continue
        pos = Position.from_deal(d.start)
        tricks = solver.tricks(pos)
        bias.played += 1
        bias.tricks_dd[tricks] += 1
        bias.made_dd += tricks >= 6
        declarer = pos.declarer
        bias.made_actual += d.final.tricks[declarer] >= 6
        if len(pos.defenders) == 2:
            bias.three_hand += 1
            bias.made_dd_three += tricks >= 6
            bias.made_maxn += solver.maxn(pos, d.start.rules).tricks[declarer] >= 6
    return bias


# --- leaf correlation -----------------------------------------------------------------------


@dataclass(slots=True)
class Leaves:
    """Nodes with ``k`` tricks left where the player to move had a choice, and how many
    had children of equal value by each measure."""

    nodes: int = 0
    same_result: int = 0  # every child: the declarer makes, or every child: fails
    same_tricks: int = 0  # every child gives the declarer the same total tricks
    same_scores: int = 0  # every child gives the same max^n score vector (R7)
    same_own: int = 0  # every child gives the player to move the same max^n score
    choices: int = 0  # legal cards summed over the nodes

    def share(self, count: int) -> float:
        return count / self.nodes if self.nodes else math.nan


def node_values(deal: Deal, solver: Solver) -> tuple[bool, bool, bool, bool]:
    """At a play node: whether all children have the same declarer result, the same
    declarer tricks (both double-dummy, declarer against the defenders), the same max^n
    score vector, the same max^n score for the player to move."""
    pos = Position.from_deal(deal)
    scores = set(solver.maxn(pos, deal.rules).card_scores.values())
    dd = set(solver.solve(pos).card_values.values())
    own = {v[pos.to_move] for v in scores}
    return len({v >= 6 for v in dd}) == 1, len(dd) == 1, len(scores) == 1, len(own) == 1


def measure_leaves(
    deals: Sequence[SampledDeal],
    solver: Solver,
    *,
    seed: int,
    tricks_left: Sequence[int] = (2, 3, 4, 5),
    playouts: int = 1,
    bots_play: bool = False,
) -> dict[int, Leaves]:
    """Random playouts (uniform legal cards) from each deal's first lead; on each, every
    node of the trick played with ``k`` tricks left where the player to move has 2+
    legal cards is solved exactly. With ``bots_play``, the nodes of the bots' own play
    of each deal instead (``playouts`` is then ignored)."""
    rng = random.Random(f"pimc-diagnostics-leaves:{seed}")
    out = {k: Leaves() for k in tricks_left}

    def visit(deal: Deal) -> tuple[Action, ...]:
        left = 10 - len(deal.completed_tricks)
        legal = deal.legal_actions()
        if left in out and len(legal) > 1:
            result, tricks, scores, own = node_values(deal, solver)
            acc = out[left]
            acc.nodes += 1
            acc.choices += len(legal)
            acc.same_result += result
            acc.same_tricks += tricks
            acc.same_scores += scores
            acc.same_own += own
        return legal

    for d in deals:
        if d.start is None:
            continue
        if bots_play:
            for state, _event in d.final.states():
                if state.phase is Phase.PLAY:
                    visit(state)
            continue
        for _ in range(playouts):
            deal = d.start.clone()
            while not deal.is_over:
                deal.apply(rng.choice(visit(deal)))
    return out


# --- disambiguation -----------------------------------------------------------------------------


def count_worlds(know: Knowledge, active: Sequence[int] | None = None) -> int:
    """The exact number of ways to place the hidden cards in the hidden slots (hand sizes
    and shown voids), i.e. the worlds :meth:`Knowledge.sample` draws from.

    With ``active`` (the seats in play), only the hands of those seats count: the slots out
    of play (the talon, a passer's hand) are merged into one, whose cards no card play can
    tell apart, so each count is of the worlds a double-dummy search can tell apart.

    >>> import random
    >>> deal = Deal.random(random.Random(3), dealer=0)
    >>> know = Knowledge.from_view(deal.view(1))
    >>> count_worlds(know) == math.comb(22, 10) * math.comb(12, 10)
    True
    >>> count_worlds(know, active=(0, 1)) == math.comb(22, 10)
    True
    """
    slots = list(know.slots)
    if active is not None:
        kept = [s for s in slots if s.owner in active]
        out = [s for s in slots if s.owner not in active]
        slots = kept
        if out:
            voids = ~0
            for s in out:
                voids &= s.void_mask
            slots.append(Slot(PRIKUP_SLOT, sum(s.size for s in out), voids & FULL_DECK_MASK))
    groups: Counter[tuple[int, ...]] = Counter()
    for suit in range(4):
        n = (know.unknown & SUIT_MASKS[suit]).bit_count()
        if n:
            allowed = tuple(i for i, s in enumerate(slots) if not s.void_mask & SUIT_MASKS[suit])
            groups[allowed] += n
    items = sorted(groups.items())

    @cache
    def ways(g: int, room: tuple[int, ...]) -> int:
        if g == len(items):
            return 1 if not any(room) else 0
        allowed, n = items[g]
        return sum(
            multinomial(split) * ways(g + 1, take(room, allowed, split))
            for split in splits(n, [room[i] for i in allowed])
        )

    result: int = ways(0, tuple(s.size for s in slots))
    return result


def splits(n: int, caps: list[int]) -> list[tuple[int, ...]]:
    """Every way to write ``n`` as an ordered sum of len(caps) parts, part i ≤ caps[i]."""
    if not caps:
        return [()] if n == 0 else []
    return [(k, *rest) for k in range(min(n, caps[0]) + 1) for rest in splits(n - k, caps[1:])]


def multinomial(parts: tuple[int, ...]) -> int:
    out, total = 1, 0
    for k in parts:
        total += k
        out *= math.comb(total, k)
    return out


def take(room: tuple[int, ...], allowed: tuple[int, ...], split: tuple[int, ...]) -> tuple[int, ...]:
    r = list(room)
    for i, k in zip(allowed, split, strict=True):
        r[i] -= k
    return tuple(r)


DISAMBIGUATION_COLUMNS = (
    "declarer",
    "defender",
    "declarer 2-hand",
    "lone defender",
    "lone def., in play",
)
"""The seats measured: the declarer and a defender of three-hand play, the declarer and
the lone defender of two-hand play; "in play": counting only the active hands (in
three-hand play the talon is what the hands leave, so the two counts agree; in two-hand
play the passer's hand and the talon hide 12 cards that no card play reveals)."""


def measure_disambiguation(deals: Sequence[SampledDeal]) -> dict[str, list[list[float]]]:
    """Per column of :data:`DISAMBIGUATION_COLUMNS`, per trick 0–9 (tricks completed), the
    log10 counts of consistent worlds at the start of that trick over the played deals
    (the bots' own play)."""
    out: dict[str, list[list[float]]] = {c: [[] for _ in range(10)] for c in DISAMBIGUATION_COLUMNS}
    for d in deals:
        if d.start is None:
            continue
        declarer, defenders = d.final.declarer, d.final.defenders
        assert declarer is not None
        active = (declarer, *defenders)
        three = len(defenders) == 2
        for state, _event in d.final.states():
            if state.phase is not Phase.PLAY or state.current_trick:
                continue
            t = len(state.completed_tricks)
            know = Knowledge.from_view(state.view(declarer))
            out["declarer" if three else "declarer 2-hand"][t].append(math.log10(count_worlds(know)))
            # one defender per deal (the first to answer), so each deal weighs the same
            know = Knowledge.from_view(state.view(defenders[0]))
            name = "defender" if three else "lone defender"
            out[name][t].append(math.log10(count_worlds(know)))
            if not three:
                out["lone def., in play"][t].append(math.log10(count_worlds(know, active)))
    return out


def measure_shrinking(deals: Sequence[SampledDeal]) -> dict[str, tuple[int, int]]:
    """The paper's disambiguation factor read directly: per seat kind, over consecutive
    pairs of a seat's decisions (nodes where it has 2+ legal cards) in the bots' own play,
    how many pairs saw the count of worlds (hands in play) shrink: ``(shrank, pairs)``.
    Pairs whose first count is already 1 (nothing in play left hidden) are left out."""
    out = {c: [0, 0] for c in ("declarer", "defender", "declarer 2-hand", "lone defender")}
    for d in deals:
        if d.start is None:
            continue
        declarer, defenders = d.final.declarer, d.final.defenders
        assert declarer is not None
        active = (declarer, *defenders)
        three = len(defenders) == 2
        seats = {declarer: "declarer" if three else "declarer 2-hand"}
        seats |= {s: "defender" if three else "lone defender" for s in defenders}
        last: dict[int, int] = {}
        for state, _event in d.final.states():
            seat = state.to_move
            if state.phase is not Phase.PLAY or seat is None or len(state.legal_actions()) < 2:
                continue
            count = count_worlds(Knowledge.from_view(state.view(seat)), active)
            if last.get(seat, 1) > 1:  # a seat that knows every hand in play learns nothing more
                acc = out[seats[seat]]
                acc[0] += count < last[seat]
                acc[1] += 1
            last[seat] = count
    return {c: (v[0], v[1]) for c, v in out.items()}


# --- the report ---------------------------------------------------------------------------------


def fmt(p: float) -> str:
    return "   n/a" if math.isnan(p) else f"{p:6.3f}"


def print_bias(bias: Bias) -> None:
    print(f"BIAS (deals with card play: {bias.played}, three-hand {bias.three_hand})")
    print(f"  declarer makes, double-dummy from the first lead   {fmt(bias.p_made_dd)}")
    three = bias.made_dd_three / bias.three_hand if bias.three_hand else math.nan
    print(f"  ... three-hand deals only, double-dummy            {fmt(three)}")
    print(f"  ... three-hand deals only, max^n with R7 scores    {fmt(bias.p_made_maxn)}")
    uncontested = bias.endings["uncontested"]
    won = (
        (uncontested + bias.made_dd) / (bias.played + uncontested) if bias.played + uncontested else math.nan
    )
    print(f"  declarer wins, uncontested deals included (dd)     {fmt(won)}")
    print(f"  declarer makes, in the bots' own play              {fmt(bias.p_made_actual)}")
    hist = "  ".join(f"{t}:{bias.tricks_dd[t]}" for t in range(11))
    total = sum(t * c for t, c in bias.tricks_dd.items())
    mean = total / bias.played if bias.played else math.nan
    print(f"  declarer's double-dummy tricks  {hist}  (mean {mean:.2f})")


def print_leaves(leaves: dict[int, Leaves], source: str) -> None:
    print(f"LEAF CORRELATION ({source}; nodes where the player to move has a choice)")
    print("  tricks left   nodes  choices  same result  same tricks  same R7 scores  same own score")
    for k, acc in leaves.items():
        avg = acc.choices / acc.nodes if acc.nodes else math.nan
        print(
            f"  {k:>11}  {acc.nodes:>6}  {avg:7.2f}  {fmt(acc.share(acc.same_result)):>11}"
            f"  {fmt(acc.share(acc.same_tricks)):>11}  {fmt(acc.share(acc.same_scores)):>14}"
            f"  {fmt(acc.share(acc.same_own)):>14}"
        )


def print_disambiguation(dis: dict[str, list[list[float]]]) -> None:
    print("DISAMBIGUATION (mean log10 of the worlds consistent with the seat's view, start of each trick)")
    cols = [c for c in DISAMBIGUATION_COLUMNS if dis[c][0]]
    print("  trick" + "".join(f"{c:>19}" for c in cols))
    for t in range(10):
        cells = "".join(f"{statistics.mean(dis[c][t]):>19.2f}" if dis[c][t] else f"{'n/a':>19}" for c in cols)
        print(f"  {t + 1:>5}{cells}")
    print("  share of the first trick's log10 worlds gone by the start of trick 2, 4, 6, 8:")
    for c in cols:
        first = statistics.mean(dis[c][0])
        gone = [
            1 - statistics.mean(dis[c][t]) / first if first and dis[c][t] else math.nan for t in (1, 3, 5, 7)
        ]
        print(f"    {c:<19} " + "  ".join(fmt(g) for g in gone) + f"   (deals: {len(dis[c][0])})")


def report(bidders: str, n: int, args: argparse.Namespace) -> None:
    """Sample ``n`` deals bid and played by ``bidders`` and print the three properties."""
    clock = [time.perf_counter()]

    def lap() -> float:
        clock.append(time.perf_counter())
        return clock[-1] - clock[-2]

    deals = sample_deals(n, args.seed, bidders)
    solver = make_solver(args.memory_mb)
    t_deals = lap()
    bias = measure_bias(deals, solver)
    t_bias = lap()
    leaves = measure_leaves(
        deals, solver, seed=args.seed, tricks_left=args.tricks_left, playouts=args.playouts
    )
    own_play = measure_leaves(deals, solver, seed=args.seed, tricks_left=args.tricks_left, bots_play=True)
    t_leaves = lap()
    dis = measure_disambiguation(deals)
    shrinking = measure_shrinking(deals)
    t_dis = lap()
    print(f"=== {n} deals bid and played by {bidders}, seed {args.seed} ===")
    print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(bias.endings.items())))
    print()
    print_bias(bias)
    print()
    print_leaves(leaves, f"random playouts, {args.playouts} per deal")
    print()
    print_leaves(own_play, "the bots' own play")
    print()
    print_disambiguation(dis)
    print("  between two decisions of a seat with hands in play still hidden, its worlds shrank in:")
    for c, (shrank, pairs) in shrinking.items():
        print(f"    {c:<19} {fmt(shrank / pairs if pairs else math.nan)}   ({shrank} of {pairs} pairs)")
    print()
    print(
        f"time: deals {t_deals:.1f} s, bias {t_bias:.1f} s, leaves {t_leaves:.1f} s, "
        f"disambiguation {t_dis:.1f} s, total {clock[-1] - clock[0]:.1f} s"
    )
    print()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--bidders",
        nargs="+",
        default=["heuristic", "pimc"],
        help="bots bidding and playing: heuristic, pimc:N",
    )
    parser.add_argument(
        "--deals", type=int, nargs="+", default=[2000, 300], help="deals per bidders (one number: for all)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=2, help="random playouts per deal (leaf correlation)")
    parser.add_argument("--tricks-left", type=int, nargs="+", default=[2, 3, 4, 5, 6, 8, 10])
    parser.add_argument("--memory-mb", type=float, default=16)
    args = parser.parse_args(argv)
    if any(not 2 <= k <= 10 for k in args.tricks_left):
        parser.error("--tricks-left must be between 2 and 10 (with 1 left every card is forced)")
    if len(args.deals) == 1:
        args.deals = args.deals * len(args.bidders)
    if len(args.deals) != len(args.bidders) or any(n < 1 for n in args.deals):
        parser.error("give one positive --deals number, or one for each --bidders")
    for bidders, n in zip(args.bidders, args.deals, strict=True):
        report(bidders, n, args)


if __name__ == "__main__":
    main()
