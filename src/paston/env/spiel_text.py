"""The OpenSpiel game's strings: the full state, a seat's observation, a seat's information state.

Every string of a seat is built from that seat's :class:`~paston.views.DealView` (or the
history it saw, :func:`~paston.views.shown_history`), so it shows nothing the seat may not
know. ``public`` and ``private`` select the parts OpenSpiel's observation types ask for.

>>> import random
>>> from paston.env.spiel_table import SpielConfig, SpielTable
>>> table = SpielTable(SpielConfig())
>>> rng = random.Random(4)
>>> while table.is_chance:
...     table.apply_chance(rng.choice(table.chance_cards()))
>>> observation_text(table, 1)
'p1 · hand TS 7S KC QC 9C KD QD 9D AH 7H · dealer 0 · auction · to move 1'
>>> information_text(table, 2)
'p2 · dealt 8S AC JC AD 8D QH JH TH 9H 8H · dealer 0 · auction · to move 1'
"""

from __future__ import annotations

from paston.actions import Kind
from paston.cards import CardSet
from paston.deal import Deal
from paston.env.spiel_table import SpielTable
from paston.views import DealView, ViewEvent, shown_history


def _cards(mask: int) -> str:
    return str(CardSet(mask)) or "-"


def _event(e: ViewEvent) -> str:
    if e.action is None:
        return f"{e.seat}:{e.kind.value}"
    text = str(e.action)
    return f"{e.seat}:{text[5:] if e.action.kind is Kind.PLAY else text}"


def _public(view: DealView, table: SpielTable) -> list[str]:
    """What everybody knows of the current deal now."""
    out = [f"dealer {view.dealer}"]
    if view.declarer is not None:
        out.append(f"declarer {view.declarer}")
    if view.contract is not None:
        out.append(f"contract {view.contract}")
    if view.defenders:
        out.append("defenders " + ",".join(str(s) for s in view.defenders))
    out.append(view.phase.name.lower())
    if view.current_trick:
        out.append("trick " + " ".join(f"{s}:{c}" for s, c in view.current_trick))
    if view.completed_tricks or view.current_trick:
        out.append("tricks " + "/".join(str(t) for t in view.tricks))
    if view.redeal is not None:
        out.append(f"redeal {view.redeal}")
    if view.result is not None:
        out.append("scores " + " ".join(f"{s:+d}" for s in view.result.scores))
    if table.match is not None:
        out.append("totals " + " ".join(str(t) for t in table.totals))
    if view.to_move is not None:
        out.append(f"to move {view.to_move}")
    return out


def _dealing(table: SpielTable) -> str:
    return f"dealing {len(table.deck)}/32"


def observation_text(table: SpielTable, seat: int, *, public: bool = True, private: bool = True) -> str:
    """The seat's observation now: its hand (and, for the declarer, prikup and discard),
    the auction and the whists said, the trick on the table, tricks taken, scores.

    Not perfect recall: the order of the cards of finished tricks is not in it."""
    parts = [f"p{seat}"] if private else []
    view = table.view(seat)
    if private and view is not None:
        parts.append(f"hand {_cards(view.hand.mask)}")
        if view.prikup is not None:
            parts.append(f"prikup {_cards(view.prikup.mask)}")
        if view.discard is not None and view.discard.mask:
            parts.append(f"discard {_cards(view.discard.mask)}")
    if public:
        if table.is_chance and view is None:
            parts.append(_dealing(table))
        elif view is not None:
            said = [e for e in view.history if e.kind is not Kind.PLAY and e.kind is not Kind.DISCARD]
            if said:
                parts.append("said " + " ".join(_event(e) for e in said))
            parts.extend(_public(view, table))
            if table.is_chance:
                parts.append(_dealing(table))
    return " · ".join(parts)


def _deal_story(deal: Deal, seat: int, *, public: bool, private: bool) -> list[str]:
    """One deal as ``seat`` lived it: its hand as dealt, the prikup if it took it, every
    action in order as it saw it."""
    out = []
    if private:
        out.append(f"dealt {_cards(deal.dealt[seat])}")
        if deal.declarer == seat:
            out.append(f"prikup {_cards(deal.prikup)}")
    history = shown_history(deal, seat if private else None)
    if history:
        out.append(" ".join(_event(e) for e in history))
    return out


def information_text(table: SpielTable, seat: int, *, public: bool = True, private: bool = True) -> str:
    """The seat's information state: everything it has seen, in order (perfect recall).

    A whole game lists the earlier deals first, each as the seat lived it."""
    parts = [f"p{seat}"] if private else []
    deals: list[Deal] = []
    if table.match is not None:
        deals = table.match.deals
    elif table.deal is not None:
        deals = [table.deal]
    for n, deal in enumerate(deals):
        if len(deals) > 1:
            parts.append(f"deal {n + 1}")
        parts.extend(_deal_story(deal, seat, public=public, private=private))
        if public:
            if deal is deals[-1]:
                view = table.view(seat)
                assert view is not None
                parts.extend(_public(view, table))
            elif deal.redeal is not None:
                parts.append(f"redeal {deal.redeal}")
            elif deal.scores is not None:
                parts.append("scores " + " ".join(f"{s:+d}" for s in deal.scores))
    if public and table.is_chance:
        parts.append(_dealing(table))
    return " · ".join(parts)


def state_text(table: SpielTable) -> str:
    """The whole state for people debugging: every hand, the prikup, every action."""
    lines = []
    if table.match is not None:
        lines.append(f"deals {table.match.completed_deals} · totals {' '.join(map(str, table.totals))}")
    deal = table.deal
    if deal is not None:
        hands = " | ".join(f"{s}: {_cards(deal.hand_mask(s))}" for s in range(3))
        lines.append(f"dealer {deal.dealer} · hands {hands} · prikup {_cards(deal.prikup)}")
        lines.append(" ".join(_event(ViewEvent(e.seat, e.action.kind, e.action)) for e in deal.events))
        view = deal.public_view(table.totals)
        lines.append(" · ".join(_public(view, table)))
    if table.is_chance:
        lines.append(" ".join([_dealing(table), *(str(CardSet(1 << c)) for c in table.deck)]))
    return "\n".join(line for line in lines if line)
