"""Drive a match with computer players (each sees only its seat's view)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from paston.bots.base import Player, make_player
from paston.match import Match
from paston.rules import Rules


def play_match(match: Match, players: Sequence[Player], *, max_deals: int = 1000) -> Match:
    """Play until the game ends (or ``max_deals`` deals are completed).

    Each player gets only the view of its own seat.
    """
    if len(players) != 3:
        raise ValueError("a match needs three players")
    while not match.is_over and match.completed_deals < max_deals:
        seat = match.to_move
        assert seat is not None, "a match with a random source always has a seat to move"
        match.apply(players[seat].choose(match.view(seat)), seat)
    if not match.is_over:
        match.drop_unplayed_deals()
    return match


def seeded_game(
    seed: str | int,
    player_names: Sequence[str],
    *,
    rules: Rules | None = None,
    max_deals: int = 1000,
) -> Match:
    """One complete game, reproducible from ``seed``: dealing, first dealer and bots.

    >>> a = seeded_game("x", ["random"] * 3)
    >>> b = seeded_game("x", ["random"] * 3)
    >>> a.totals == b.totals and len(a.deals) == len(b.deals)
    True
    """
    rng = random.Random(f"paston-game:{seed}")
    first_dealer = rng.randrange(3)
    players = [make_player(name, seed=rng.getrandbits(64)) for name in player_names]
    match = Match(first_dealer=first_dealer, rules=rules, seats=tuple(player_names), rng=rng)
    return play_match(match, players, max_deals=max_deals)
