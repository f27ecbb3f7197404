"""The pure-Python reference solver: plain minimax, kept small and obviously correct.

It is the oracle the compiled core is tested against. Three searches:

- :func:`declarer_tricks` — the declarer's total tricks when the declarer maximises
  and the defenders (one or two, cooperating) minimise; alpha-beta with a table of
  bounds at trick boundaries, checked in the tests against :func:`declarer_tricks_minimax`
  (memoised minimax with no pruning at all);
- :func:`maxn_scores` — max^n with the real scores of R7: each active player picks
  the card that maximises their own deal score. Ties are broken the same way in
  every solver: the declarer, once the contract's fate is equal, takes as many tricks
  as possible; a defender, at equal own score, prefers the declarer to take fewer
  tricks; then the lowest card.

>>> from paston.solver.position import Position
>>> pos = Position.from_text(hands=["AS 7H", "KS 8H", "QS 9H"], trump="spades", declarer=0, leader=0)
>>> declarer_tricks(pos), card_values(pos)
(1, {7: 1, 24: 1})
"""

from __future__ import annotations

from functools import cache

from paston.rules import Rules
from paston.scoring import played_scores
from paston.solver.position import Position, PositionError
from paston.tricks import playable, trick_winner

Hands = tuple[int, int, int]


def _legal(hand: int, trick: tuple[int, ...], trump: int) -> list[int]:
    allowed = playable(hand, trick[0] >> 3 if trick else None, trump)
    return [i for i in range(32) if allowed >> i & 1]


def _winner(trick: tuple[int, ...], seats: list[int], trump: int) -> int:
    return seats[trick_winner(trick, trump)]


class _Game:
    """The play of one position: order of seats, trump, who declares."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.trump = pos.trump
        self.declarer = pos.declarer
        self.n = len(pos.active)
        self.next = {s: pos.next_seat(s) for s in pos.active}

    def seats_from(self, leader: int) -> list[int]:
        out = [leader]
        while len(out) < self.n:
            out.append(self.next[out[-1]])
        return out

    def children(
        self, hands: Hands, leader: int, trick: tuple[int, ...]
    ) -> list[tuple[int, Hands, tuple[int, ...]]]:
        seat = self.seats_from(leader)[len(trick)]
        out = []
        for c in _legal(hands[seat], trick, self.trump):
            h = list(hands)
            h[seat] ^= 1 << c
            out.append((c, (h[0], h[1], h[2]), (*trick, c)))
        return out


# --- declarer against the defenders: plain memoised minimax ------------------------------
def declarer_tricks_minimax(pos: Position) -> int:
    """Declarer's total tricks by exhaustive memoised minimax (for small positions)."""
    game = _Game(pos)

    @cache
    def future(hands: Hands, leader: int, trick: tuple[int, ...]) -> int:
        if len(trick) == game.n:
            w = _winner(trick, game.seats_from(leader), game.trump)
            won = 1 if w == game.declarer else 0
            if not hands[w]:
                return won
            return won + future(hands, w, ())
        seat = game.seats_from(leader)[len(trick)]
        values = [future(h, leader, t) for _, h, t in game.children(hands, leader, trick)]
        return max(values) if seat == game.declarer else min(values)

    return pos.tricks[pos.declarer] + future(pos.hands, pos.leader, pos.trick)


# --- declarer against the defenders: alpha-beta with bounds at trick boundaries ---------
def _alphabeta_search(game: _Game) -> object:
    table: dict[tuple[Hands, int], tuple[int, int]] = {}

    def search(hands: Hands, leader: int, trick: tuple[int, ...], alpha: int, beta: int) -> int:
        """Future declarer tricks; exact if inside (alpha, beta), else a bound."""
        if len(trick) == game.n:
            w = _winner(trick, game.seats_from(leader), game.trump)
            won = 1 if w == game.declarer else 0
            if not hands[w]:
                return won
            return won + search(hands, w, (), alpha - won, beta - won)
        if not trick:
            lo, hi = table.get((hands, leader), (0, hands[leader].bit_count()))
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha, beta = max(alpha, lo), min(beta, hi)
        seat = game.seats_from(leader)[len(trick)]
        maximise = seat == game.declarer
        best = -1 if maximise else 99
        a, b = alpha, beta
        for _, h, t in game.children(hands, leader, trick):
            v = search(h, leader, t, a, b)
            if maximise:
                best = max(best, v)
                a = max(a, v)
            else:
                best = min(best, v)
                b = min(b, v)
            if a >= b:
                break
        if not trick:
            lo, hi = table.get((hands, leader), (0, hands[leader].bit_count()))
            if best <= alpha:
                hi = min(hi, best)
            elif best >= beta:
                lo = max(lo, best)
            else:
                lo = hi = best
            table[(hands, leader)] = (lo, hi)
        return best

    return search


def _future_tricks(game: _Game, hands: Hands, leader: int, trick: tuple[int, ...]) -> int:
    search = _alphabeta_search(game)
    return search(hands, leader, trick, -1, 11)  # type: ignore[operator, no-any-return]


def declarer_tricks(pos: Position) -> int:
    """The declarer's total tricks (taken so far plus the rest) under optimal play."""
    game = _Game(pos)
    return pos.tricks[pos.declarer] + _future_tricks(game, pos.hands, pos.leader, pos.trick)


def card_values(pos: Position) -> dict[int, int]:
    """For each legal card of the player to move: the declarer's total tricks after it."""
    game = _Game(pos)
    base = pos.tricks[pos.declarer]
    out = {}
    for c, h, t in game.children(pos.hands, pos.leader, pos.trick):
        out[c] = base + _after(game, h, pos.leader, t)
    return out


def _after(game: _Game, hands: Hands, leader: int, trick: tuple[int, ...]) -> int:
    if len(trick) == game.n:
        w = _winner(trick, game.seats_from(leader), game.trump)
        won = 1 if w == game.declarer else 0
        return won + (_future_tricks(game, hands, w, ()) if hands[w] else 0)
    return _future_tricks(game, hands, leader, trick)


def makes_contract(pos: Position, need: int = 6) -> bool:
    """Whether the declarer takes at least ``need`` tricks in all."""
    return declarer_tricks(pos) >= need


# --- max^n with the scores of R7 -------------------------------------------------------------
Scores = tuple[int, int, int]


def _maxn(pos: Position, rules: Rules) -> tuple[Scores, dict[int, Scores]]:
    if sum(pos.tricks) + pos.cards_left != 10:
        raise PositionError("not-full-deal", "max^n scores need a position of a 10-trick deal")
    game = _Game(pos)
    declarer = pos.declarer
    defenders = pos.defenders
    Tricks = tuple[int, int, int]

    def score_of(tricks: Tricks) -> Scores:
        return played_scores(pos.contract, declarer=declarer, defenders=defenders, tricks=tricks, rules=rules)

    def better(seat: int, new: Tricks, old: Tricks) -> bool:
        if seat == declarer:
            made_new, made_old = new[declarer] >= 6, old[declarer] >= 6
            if made_new != made_old:
                return made_new
            return new[declarer] > old[declarer]
        own_new, own_old = score_of(new)[seat], score_of(old)[seat]
        if own_new != own_old:
            return own_new > own_old
        return new[declarer] < old[declarer]

    @cache
    def value(hands: Hands, leader: int, trick: tuple[int, ...], taken: Tricks) -> Tricks:
        if len(trick) == game.n:
            w = _winner(trick, game.seats_from(leader), game.trump)
            t = list(taken)
            t[w] += 1
            now = (t[0], t[1], t[2])
            if not hands[w]:
                return now
            return value(hands, w, (), now)
        seat = game.seats_from(leader)[len(trick)]
        best: Tricks | None = None
        for _, h, t2 in game.children(hands, leader, trick):
            v = value(h, leader, t2, taken)
            if best is None or better(seat, v, best):
                best = v
        assert best is not None
        return best

    seat = pos.to_move
    per_card = {
        c: value(h, pos.leader, t, pos.tricks) for c, h, t in game.children(pos.hands, pos.leader, pos.trick)
    }
    best_card = min(per_card)
    for c in sorted(per_card):
        if better(seat, per_card[c], per_card[best_card]):
            best_card = c
    return score_of(per_card[best_card]), {c: score_of(t) for c, t in per_card.items()}


def maxn_scores(pos: Position, rules: Rules | None = None) -> Scores:
    """The deal scores (R7) when each active player maximises their own score."""
    return _maxn(pos, rules or Rules())[0]


def maxn_card_values(pos: Position, rules: Rules | None = None) -> dict[int, Scores]:
    """For each legal card of the player to move: the score vector after it."""
    return _maxn(pos, rules or Rules())[1]
