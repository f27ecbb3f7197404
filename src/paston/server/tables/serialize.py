"""The one place where game state becomes messages: per-audience views as JSON.

Everything sent to a seat or a spectator is built here from a :class:`DealView`
(which holds only what that audience may know), never from the full state.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from paston.actions import Action, Kind
from paston.views import DealView, ViewEvent


def action_json(seat: int, action: Action | None, kind: Kind) -> dict[str, Any]:
    """An action as a view holds it: ``action`` is ``None`` where the view hides it (another
    seat's discard), and is then written ``"hidden": true``.

    >>> action_json(1, None, Kind.DISCARD)
    {'seat': 1, 'type': 'discard', 'hidden': True}
    """
    out: dict[str, Any] = {"seat": seat, "type": kind.value}
    if action is None:
        out["hidden"] = True
        return out
    if action.contract is not None:
        out["value"] = action.contract.name_in_record
    if kind is Kind.PLAY:
        out["card"] = str(action.cards[0])
    elif kind is Kind.DISCARD:
        out["cards"] = [str(c) for c in action.cards]
    return out


def _event_json(e: ViewEvent) -> dict[str, Any]:
    return action_json(e.seat, e.action, e.kind)


class PublicHistory(NamedTuple):
    """The history of the public view (a spectator's), with its encoding: built once
    per change and shared by every audience whose view holds the same entries."""

    events: tuple[ViewEvent, ...]
    encoded: list[dict[str, Any]]

    @classmethod
    def of(cls, view: DealView) -> PublicHistory:
        """The public history of a public view (``match.view(None)``), encoded as it is."""
        return cls(view.history, [_event_json(e) for e in view.history])


def last_event_json(view: DealView) -> dict[str, Any]:
    """The newest entry of a view's history, as :func:`view_json` writes history entries."""
    return _event_json(view.history[-1])


def _history_json(view: DealView, public: PublicHistory | None) -> list[dict[str, Any]]:
    """A view's history encoded as it is; entries equal to the public history's reuse its
    encoding."""
    if public is None or len(public.events) != len(view.history):
        return [_event_json(e) for e in view.history]
    if view.history is public.events:
        return list(public.encoded)
    return [
        shared if e == p else _event_json(e)
        for e, p, shared in zip(view.history, public.events, public.encoded, strict=True)
    ]


def view_json(
    view: DealView, public: PublicHistory | None = None, *, history: bool = True, sealed: bool = False
) -> dict[str, Any]:
    """A seat's (or a spectator's) view of the current deal, encoded as it is. ``public``
    may give the public history already encoded (shared by every audience of one
    change); ``history=False`` leaves the history out (an update carries only what is
    new); ``sealed`` withholds the seat's cards and moves (its hand, prikup and discard
    empty or hidden, no legal action): a provisional first deal not yet shuffled with
    the seeds of everyone seated (decision F6, :func:`paston.server.tables.messages.sealed`)."""
    out = _view_fields(view)
    if sealed:
        out.update(hand=[], prikup=None, discard=None, legal=[])
    if history:
        out["history"] = _history_json(view, public)
    return out


def _view_fields(view: DealView) -> dict[str, Any]:
    last = view.completed_tricks[-1] if view.completed_tricks else None
    return {
        "seat": view.seat,
        "phase": view.phase.name.lower(),
        "to_move": view.to_move,
        "dealer": view.dealer,
        "first_bidder": view.first_bidder,
        "redeal": view.redeal,
        "hand": [str(c) for c in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "prikup": None if view.prikup is None else [str(c) for c in view.prikup],
        "discard": None if view.discard is None else [str(c) for c in view.discard],
        "high_bid": None if view.high_bid is None else view.high_bid.name_in_record,
        "in_auction": list(view.in_auction),
        "declarer": view.declarer,
        "contract": None if view.contract is None else view.contract.name_in_record,
        "whist_answers": list(view.whist_answers),
        "defenders": list(view.defenders),
        "trick": [{"seat": s, "card": str(c)} for s, c in view.current_trick],
        "last_trick": None
        if last is None
        else {"plays": [{"seat": s, "card": str(c)} for s, c in last.plays], "winner": last.winner},
        "tricks": list(view.tricks),
        "legal": [str(a) for a in view.legal_actions],
        "totals": list(view.totals),
        "result": None if view.result is None else view.result.to_record(),
    }
