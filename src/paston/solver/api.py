"""The solver API over the compiled core."""

from __future__ import annotations

import contextlib
import mmap
import threading
from dataclasses import dataclass, field

from paston.cards import ALL_CARDS, Card
from paston.rules import Rules
from paston.scoring import played_scores
from paston.solver import _core  # type: ignore[attr-defined]
from paston.solver.position import Position, PositionError

DEFAULT_MEMORY_MB = 32
# The smallest solver that runs max^n (its table then holds 32,768 entries, 512 KiB).
# The max^n search cannot prune, so a table too small for a deal's positions makes it
# thrash: at 0.01 MB one deal took 138 s; at 0.5 MB 100 random deals took 95 ms on
# average and 4.9 s at worst; at 1 MB, 500 deals on a fresh table each took 10.5 ms on
# average (4.6 ms median) and 0.52 s at worst (32 MB: about 7 ms on average).
MAXN_MIN_MEMORY_MB = 1

Scores = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Solution:
    """Declarer against the defenders: the declarer's total tricks under optimal play
    (``value``), and for each legal card of the player to move the declarer's total
    tricks after playing it. ``nodes`` counts the positions searched."""

    value: int
    card_values: dict[Card, int]
    nodes: int

    def best_cards(self, for_declarer: bool) -> list[Card]:
        """The optimal cards (max for the declarer's side, min for a defender)."""
        target = max(self.card_values.values()) if for_declarer else min(self.card_values.values())
        return [c for c, v in self.card_values.items() if v == target]


@dataclass(frozen=True, slots=True)
class MaxnSolution:
    """max^n with the scores of R7: each active player maximises their own deal score.

    ``scores`` and ``tricks`` are the final deal scores and tricks per seat under that
    play; ``card_scores`` the score vector after each legal card of the player to move,
    ``card_tricks`` the tricks per seat after it.
    """

    scores: Scores
    tricks: tuple[int, int, int]
    card_scores: dict[Card, Scores]
    nodes: int
    card_tricks: dict[Card, tuple[int, int, int]] = field(default_factory=dict)


def _table_memory(size: int) -> mmap.mmap | bytearray:
    """Zeroed memory for a table. Where the system offers it, a private anonymous mapping
    advised onto huge pages: the table's probes land at random across it, and with small
    pages most of them would also miss the address-translation cache. Elsewhere, a
    bytearray.

    >>> len(_table_memory(4096))
    4096
    """
    flags = getattr(mmap, "MAP_PRIVATE", None), getattr(mmap, "MAP_ANONYMOUS", None)
    if flags[0] is None or flags[1] is None:
        return bytearray(size)
    try:
        memory = mmap.mmap(-1, size, flags=flags[0] | flags[1])
    except (OSError, ValueError):
        return bytearray(size)
    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if advice is not None:
        with contextlib.suppress(OSError):  # huge pages not offered: ordinary pages
            memory.madvise(advice)
    return memory


class Solver:
    """A double-dummy solver with its own transposition tables.

    ``memory_mb`` bounds the table memory (default 32 MB, at least 0.01, at most 4096;
    :meth:`maxn` needs at least ``MAXN_MIN_MEMORY_MB``, 1 MB). Entries are keyed exactly
    and stay valid across positions and deals, so reusing a solver makes later searches
    faster. The compiled core releases the GIL while it searches, so solvers used on
    different threads search in parallel; a solver shared by threads serialises its own
    calls (a lock guards its tables), so give each thread its own solver for parallel
    work (see :mod:`paston.bots.worlds`).

    Every method takes a :class:`Position` (validated when it was built) and nothing
    else; the compiled core checks its arguments again, so no call can crash or hang it.

    >>> Solver(memory_mb=0.5).tricks((0b111, 0b111 << 8, 0b111 << 16))
    Traceback (most recent call last):
    TypeError: Solver.tricks needs a Position, not tuple
    """

    def __init__(self, memory_mb: float = DEFAULT_MEMORY_MB) -> None:
        if type(memory_mb) not in (int, float):
            raise TypeError(f"memory_mb must be a number of megabytes, not {type(memory_mb).__name__}")
        if not 0.01 <= memory_mb <= 4096:
            raise ValueError(f"memory_mb must be between 0.01 and 4096, not {memory_mb}")
        total = int(memory_mb * 1024 * 1024)
        # the max^n table starts at a 64-byte boundary (one bucket per cache line): its
        # buffer has 64 bytes to spare so that alignment never halves it
        self._tt = bytearray(total // 2 - 64)
        self._maxn_tt = _table_memory(total - len(self._tt))
        self.memory_bytes = total
        self._lock = threading.Lock()

    def _args(self, pos: Position, method: str) -> tuple[object, ...]:
        """The compiled core's arguments for ``pos`` (a TypeError for anything but a Position)."""
        if not isinstance(pos, Position):
            raise TypeError(f"Solver.{method} needs a Position, not {type(pos).__name__}")
        active = 0
        for s in pos.active:
            active |= 1 << s
        h = pos.hands
        return (h[0], h[1], h[2], pos.trump, pos.declarer, active, pos.leader, pos.trick, self._tt)

    def tricks(self, pos: Position) -> int:
        """The declarer's total tricks under optimal play."""
        args = self._args(pos, "tricks")
        with self._lock:
            value, _nodes = _core.tricks(*args)
        return pos.tricks[pos.declarer] + int(value)

    def tricks_with_nodes(self, pos: Position) -> tuple[int, int]:
        """The declarer's total tricks and the number of nodes searched."""
        args = self._args(pos, "tricks_with_nodes")
        with self._lock:
            value, nodes = _core.tricks(*args)
        return pos.tricks[pos.declarer] + int(value), int(nodes)

    def makes(self, pos: Position, need: int = 6) -> bool:
        """Whether the declarer takes at least ``need`` tricks in all (stops as soon as
        that is decided)."""
        args = self._args(pos, "makes")
        if type(need) is not int:
            raise TypeError(f"need must be a number of tricks (int), not {type(need).__name__}")
        future = need - pos.tricks[pos.declarer]
        with self._lock:
            ok, _nodes = _core.reaches(args, future)
        return bool(ok)

    def solve(self, pos: Position) -> Solution:
        """The declarer's total tricks and the value of every legal card."""
        args = self._args(pos, "solve")
        base = pos.tricks[pos.declarer]
        with self._lock:
            values, nodes = _core.card_values(*args)
        cards = {ALL_CARDS[c]: base + v for c, v in sorted(values.items())}
        seat = pos.to_move
        best = max(cards.values()) if seat == pos.declarer else min(cards.values())
        return Solution(best, cards, int(nodes))

    def maxn(self, pos: Position, rules: Rules | None = None) -> MaxnSolution:
        """max^n with the real scores of R7.

        Needs a position of a 10-trick deal (a ``PositionError`` otherwise) and a solver
        of at least ``MAXN_MIN_MEMORY_MB`` (1 MB, for a max^n table of 512 KiB; a
        ``ValueError`` otherwise): max^n cannot prune, and on a smaller table a deal can
        take minutes. At the minimum a full deal on a fresh table takes about 10 ms on
        average and 0.5 s at worst."""
        args = self._args(pos, "maxn")
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(f"rules must be Rules or None, not {type(rules).__name__}")
        if len(self._maxn_tt) < _core.MAXN_TABLE_MIN_BYTES:
            raise ValueError(
                f"max^n needs a solver of at least {MAXN_MIN_MEMORY_MB} MB for its table "
                f"(Solver(memory_mb={MAXN_MIN_MEMORY_MB})); this one has {self.memory_bytes / 2**20:g} MB"
            )
        if sum(pos.tricks) + pos.cards_left != 10:
            raise PositionError("not-full-deal", "max^n scores need a position of a 10-trick deal")
        rules = rules or Rules()
        if len(pos.defenders) == 1:
            return self._maxn_two_hand(pos, rules)
        with self._lock:
            (t0, t1, t2), per_card, nodes = _core.maxn(args, pos.tricks, self._maxn_tt)

        def scores(t: tuple[int, int, int]) -> Scores:
            return played_scores(
                pos.contract, declarer=pos.declarer, defenders=pos.defenders, tricks=t, rules=rules
            )

        return MaxnSolution(
            scores=scores((t0, t1, t2)),
            tricks=(t0, t1, t2),
            card_scores={ALL_CARDS[c]: scores(v) for c, v in sorted(per_card.items())},
            nodes=int(nodes),
            card_tricks={ALL_CARDS[c]: (v[0], v[1], v[2]) for c, v in sorted(per_card.items())},
        )

    def _maxn_two_hand(self, pos: Position, rules: Rules) -> MaxnSolution:
        """Two-hand play: the lone defender's score rises with its own tricks (its ties
        prefer fewer declarer tricks, i.e. more of its own), and the tricks sum to 10, so
        max^n is exactly the declarer-against-defender search."""
        solution = self.solve(pos)
        defender = pos.defenders[0]

        def tricks_of(declarer_tricks: int) -> tuple[int, int, int]:
            t = [0, 0, 0]
            t[pos.declarer] = declarer_tricks
            t[defender] = 10 - declarer_tricks
            return t[0], t[1], t[2]

        def scores(t: tuple[int, int, int]) -> Scores:
            return played_scores(
                pos.contract, declarer=pos.declarer, defenders=pos.defenders, tricks=t, rules=rules
            )

        final = tricks_of(solution.value)
        return MaxnSolution(
            scores=scores(final),
            tricks=final,
            card_scores={c: scores(tricks_of(v)) for c, v in solution.card_values.items()},
            nodes=solution.nodes,
            card_tricks={c: tricks_of(v) for c, v in solution.card_values.items()},
        )


_DEFAULT: Solver | None = None


def default_solver() -> Solver:
    """A shared solver with the default memory, created on first use."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Solver()
    return _DEFAULT
