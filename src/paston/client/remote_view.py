"""A seat's view rebuilt from the server's JSON (``view`` of a ``state`` message): the
exact inverse of the server's encoding, so a program at a remote table gets the same
:class:`~paston.views.DealView` a computer player gets from the engine, and can hand it
to any :class:`~paston.bots.Player`.

The JSON leaves out what follows from the rest: the completed tricks (the history's
plays, three by three, or two by two against a lone defender, each won by R6.3 and the
last checked against the trick the server names), the cards played, the first-deal flag
and the rules (the table says them).

>>> import random
>>> from paston.deal import Deal
>>> from paston.server.tables.serialize import view_json
>>> deal = Deal.random(random.Random(1), dealer=0)
>>> view = deal.view(deal.to_move)
>>> view_from_json(view_json(view), rules=view.rules, first_deal=view.first_deal) == view
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from paston.actions import Action, Kind
from paston.cards import Card, CardSet
from paston.contracts import Contract
from paston.errors import ParseError
from paston.phases import Phase
from paston.result import DealResult, Outcome, Redeal
from paston.rules import Rules
from paston.tricks import Trick, trick_winner
from paston.views import DealView, ViewEvent

__all__ = ["ViewError", "view_from_json"]


class ViewError(ParseError):
    """The server's view JSON is not one this client can read (names what is wrong)."""

    def __init__(self, message: str) -> None:
        super().__init__("bad-view", message)


def _cards(codes: object, what: str) -> CardSet:
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        raise ViewError(f"{what} must be a list of card codes, not {codes!r}")
    return CardSet(Card.parse(c) for c in codes)


def _contract(name: object) -> Contract | None:
    return None if name is None else Contract.parse(str(name))


def _event(obj: Mapping[str, Any]) -> ViewEvent:
    seat, kind = int(obj["seat"]), Kind(obj["type"])
    if obj.get("hidden"):
        return ViewEvent(seat, kind, None)
    if kind is Kind.PLAY:
        action = Action.play(Card.parse(obj["card"]))
    elif kind is Kind.DISCARD:
        first, second = (Card.parse(c) for c in obj["cards"])
        action = Action.discard(first, second)
    elif kind in (Kind.BID, Kind.TRUMP):
        contract = Contract.parse(obj["value"])
        action = Action.bid(contract) if kind is Kind.BID else Action.trump(contract)
    else:
        action = Action.parse(kind.value)
    return ViewEvent(seat, kind, action)


def _tricks(
    history: Sequence[ViewEvent], last: Mapping[str, Any] | None, contract: Contract | None, players: int
) -> tuple[Trick, ...]:
    """The completed tricks: the plays ``players`` by ``players`` (three, or two when a lone
    defender plays against the declarer and the other sits out, R5.2)."""
    plays = [(e.seat, e.action.cards[0]) for e in history if e.kind is Kind.PLAY and e.action is not None]
    done = len(plays) // players
    trump = None if contract is None else contract.trump_suit
    out = []
    for k in range(done):
        trick = tuple(plays[players * k : players * (k + 1)])
        position = trick_winner([int(c) for _, c in trick], trump)
        out.append(Trick(trick[0][0], trick, trick[position][0]))
    if last is not None and out and out[-1].winner != last["winner"]:
        raise ViewError(
            f"the last trick's winner is seat {last['winner']}, not seat {out[-1].winner} by R6.3"
        )
    return tuple(out)


def _result(obj: Mapping[str, Any] | None) -> DealResult | None:
    if obj is None:
        return None
    contract = _contract(obj["contract"])
    tricks, scores = obj["tricks"], obj["scores"]
    return DealResult(
        int(obj["declarer"]),
        Outcome(obj["outcome"]),
        contract,
        tuple(int(s) for s in obj["defenders"]),
        (int(tricks[0]), int(tricks[1]), int(tricks[2])),
        (int(scores[0]), int(scores[1]), int(scores[2])),
    )


def view_from_json(obj: Mapping[str, Any], *, rules: Rules, first_deal: bool) -> DealView:
    """The :class:`DealView` the server encoded as ``obj`` (its ``view`` with its
    ``history``); ``rules`` and ``first_deal`` come from the table. :class:`ViewError`
    when ``obj`` is not such a view."""
    try:
        history = tuple(_event(e) for e in obj["history"])
        contract = _contract(obj["contract"])
        defenders = tuple(int(s) for s in obj["defenders"])
        completed = _tricks(history, obj["last_trick"], contract, 1 + len(defenders) if defenders else 3)
        current = tuple((int(p["seat"]), Card.parse(p["card"])) for p in obj["trick"])
        played = CardSet([*(c for t in completed for _, c in t.plays), *(c for _, c in current)])
        sizes, tricks, totals = obj["hand_sizes"], obj["tricks"], obj["totals"]
        return DealView(
            seat=obj["seat"],
            rules=rules,
            dealer=int(obj["dealer"]),
            first_deal=first_deal,
            first_bidder=obj["first_bidder"],
            redeal=None if obj["redeal"] is None else Redeal(obj["redeal"]),
            phase=Phase[str(obj["phase"]).upper()],
            to_move=obj["to_move"],
            hand=_cards(obj["hand"], "hand"),
            hand_sizes=(int(sizes[0]), int(sizes[1]), int(sizes[2])),
            prikup=None if obj["prikup"] is None else _cards(obj["prikup"], "prikup"),
            discard=None if obj["discard"] is None else _cards(obj["discard"], "discard"),
            history=history,
            high_bid=_contract(obj["high_bid"]),
            in_auction=tuple(bool(b) for b in obj["in_auction"]),  # type: ignore[arg-type]
            declarer=obj["declarer"],
            contract=contract,
            whist_answers=tuple(bool(b) for b in obj["whist_answers"]),
            defenders=defenders,
            current_trick=current,
            completed_tricks=completed,
            tricks=(int(tricks[0]), int(tricks[1]), int(tricks[2])),
            played=played,
            legal_actions=tuple(Action.parse(a) for a in obj["legal"]),
            totals=(int(totals[0]), int(totals[1]), int(totals[2])),
            result=_result(obj["result"]),
        )
    except ViewError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, ParseError) as err:
        raise ViewError(f"not a seat's view: {type(err).__name__}: {err}") from None
