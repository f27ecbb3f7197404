"""Replays of finished games: the story of every deal, told by the engine, with all hands shown.

Only for finished games (or records a person opens themselves): a replay shows every
hidden card. Every fact the viewer shows comes from here: the auction in order, the
contract and the trump, each trick with its winner, the tricks taken so far, the deal's
scores and the running totals with the resets of R8.2. The browser draws them; it
applies no rule of its own.

>>> from paston.bots.runner import seeded_game
>>> story = replay_story(seeded_game("doc", ["random"] * 3, max_deals=1))
>>> deal = story["deals"][-1]
>>> len(deal["steps"]) == len(deal["actions"]) + 1
True
>>> deal["steps"][-1]["tricks"] == deal["result"]["tricks"]
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from paston.bots.base import parse_player_name
from paston.cards import CardSet
from paston.deal import Deal
from paston.errors import ParseError
from paston.match import Match
from paston.scoring import reset_seats

#: The names a Paston server gives its computer seats in records: ``"pimc:2 (1)"``.
_BOT_SEAT = re.compile(r"^(?P<bot>\S+) \((?P<seat>[0-2])\)$")


def players_of_names(names: Sequence[str]) -> list[dict[str, Any]]:
    """Who sat where, read from a record's seat names: the name a Paston server gives a
    computer seat (its player and seat number) is that computer; any other is a person.

    >>> [(p["kind"], p["bot"], p["name"]) for p in players_of_names(["Ana", "pimc:2 (1)", "heuristic (0)"])]
    [('human', None, 'Ana'), ('bot', 'pimc:2', 'pimc:2 (1)'), ('human', None, 'heuristic (0)')]
    """
    out = []
    for i, name in enumerate(names):
        found = _BOT_SEAT.match(name)
        bot = found["bot"] if found and int(found["seat"]) == i else None
        if bot is not None:
            try:
                parse_player_name(bot)
            except ParseError:
                bot = None
        out.append(
            {"seat": i, "kind": "human" if bot is None else "bot", "bot": bot, "name": name, "taken": True}
        )
    return out


def _step(deal: Deal, index: int, next_event: Any) -> dict[str, Any]:
    """What the viewer shows before action ``index`` (or at the end, when ``next_event``
    is None)."""
    high = deal.high_bid
    return {
        "index": index,
        "phase": deal.phase.name.lower(),
        "to_move": deal.to_move,
        "hands": [[str(c) for c in deal.hand(s)] for s in range(3)],
        "discard": [str(c) for c in deal.discard],
        "declarer": deal.declarer,
        "bid": None if high is None else high.name_in_record,
        "contract": None if deal.contract is None else deal.contract.name_in_record,
        "defenders": list(deal.defenders),
        "active": list(deal.active),
        "trick": [{"seat": s, "card": str(c)} for s, c in deal.current_trick],
        "done": len(deal.completed_tricks),
        "tricks": list(deal.tricks),
        "next": None
        if next_event is None
        else {"seat": next_event.seat, "action": str(next_event.action), "index": index},
        "result": None if deal.result is None else deal.result.to_record(),
    }


def _deal_story(match: Match, i: int, before: tuple[int, int, int], number: int | None) -> dict[str, Any]:
    played = match.deals[i]
    events = played.events
    steps: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []
    for k, (state, _event) in enumerate(played.states()):
        nxt = events[k] if k < len(events) else None
        steps.append(_step(state, k, nxt))
        if nxt is not None:
            actions.append(
                {"index": k, "seat": nxt.seat, "phase": state.phase.name.lower(), "action": str(nxt.action)}
            )
    plays = iter(a["index"] for a in actions if a["phase"] == "play")
    tricks = [
        {
            "number": n + 1,
            "leader": trick.leader,
            "plays": [{"seat": s, "card": str(c), "index": next(plays)} for s, c in trick.plays],
            "winner": trick.winner,
        }
        for n, trick in enumerate(played.completed_tricks)
    ]
    result = played.result
    totals = match.deal_totals[i]
    return {
        "index": i,
        "number": number,
        "dealer": played.dealer,
        "first_bidder": played.first_bidder,
        "redeal": None if played.redeal is None else str(played.redeal),
        "hands": steps[0]["hands"],
        "prikup": [str(c) for c in CardSet(played.prikup)],
        "discard": [str(c) for c in played.discard],
        "declarer": played.declarer,
        "bid": None if played.high_bid is None else played.high_bid.name_in_record,
        "contract": None if played.contract is None else played.contract.name_in_record,
        "actions": actions,
        "tricks": tricks,
        "result": None if result is None else result.to_record(),
        "totals_before": list(before),
        "totals": None if totals is None else list(totals),
        "resets": [] if result is None else list(reset_seats(before, result.scores, rules=match.rules)),
        "steps": steps,
    }


def replay_story(match: Match, players: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Every deal of a game as the viewer tells it: for each deal its auction (``actions``),
    contract, tricks with their winners, scores and totals, and the state before each
    action (``steps``, the last one the deal's end). ``players`` are the table's seats
    (``kind``, ``bot``, ``name``); without them they are read from the seat names."""
    deals: list[dict[str, Any]] = []
    before = (0, 0, 0)
    number = 0
    for i, totals in enumerate(match.deal_totals):
        scored = match.deals[i].result is not None and totals is not None
        number += scored
        deals.append(_deal_story(match, i, before, number if scored else None))
        if totals is not None:
            before = totals
    return {
        "seats": list(match.seats),
        "players": [dict(p) for p in players] if players is not None else players_of_names(match.seats),
        "rules": match.rules.to_dict(),
        "target": match.rules.target,
        "totals": list(match.totals),
        "winners": list(match.winners),
        "deals": deals,
    }
