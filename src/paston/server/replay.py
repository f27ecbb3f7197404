"""Replays of finished games: every state of every deal with all hands shown.

Only for finished games (or records a person opens themselves): a replay shows every
hidden card.
"""

from __future__ import annotations

from typing import Any

from paston.cards import CardSet
from paston.deal import Deal
from paston.match import Match
from paston.record import iter_states


def _state_json(deal: Deal, next_action: str | None, seat: int | None) -> dict[str, Any]:
    return {
        "dealer": deal.dealer,
        "phase": deal.phase.name.lower(),
        "redeal": deal.redeal,
        "hands": [[str(c) for c in deal.hand(s)] for s in range(3)],
        "prikup": [str(c) for c in CardSet(deal.prikup)],
        "discard": [str(c) for c in deal.discard],
        "declarer": deal.declarer,
        "contract": None if deal.contract is None else deal.contract.name_in_record,
        "defenders": list(deal.defenders),
        "trick": [{"seat": s, "card": str(c)} for s, c in deal.current_trick],
        "tricks": list(deal.tricks),
        "history": [e.to_record() for e in deal.events],
        "next": None if next_action is None else {"seat": seat, "action": next_action},
        "result": None if deal.result is None else deal.result.to_record(),
    }


def replay_steps(match: Match) -> dict[str, Any]:
    """Every step of a game: for each deal, the state before each action and at its end."""
    deals: list[dict[str, Any]] = []
    for i, k, state in iter_states(match):
        played = match.deals[i]
        if k == 0:
            deals.append({"index": i, "totals": match.deal_totals[i], "steps": []})
        events = played.events
        nxt = events[k] if k < len(events) else None
        deals[-1]["steps"].append(
            _state_json(state, None if nxt is None else str(nxt.action), None if nxt is None else nxt.seat)
        )
    return {
        "seats": list(match.seats),
        "rules": match.rules.to_dict(),
        "winners": list(match.winners),
        "deals": deals,
    }
