"""The environments' ``render()``: the table as text, every hand shown (it is for the person
watching an experiment, not for a player).

>>> import random
>>> from paston.deal import Deal
>>> print(render_text(Deal.random(random.Random(3), dealer=0), (0, 0, 0)).splitlines()[0])
auction · seat 1 to move · dealer seat 0 · high bid none · totals 0 0 0
"""

from __future__ import annotations

from typing import Protocol

from paston.deal import Deal
from paston.phases import Phase


class Shown(Protocol):
    """What an environment renders: the deal on the table (none between episodes) and the
    game's totals."""

    @property
    def deal(self) -> Deal | None: ...

    @property
    def totals(self) -> tuple[int, int, int]: ...


def render_for(mode: str | None, game: Shown) -> str | None:
    """``render()`` of the environments: the text returned (``ansi``), printed (``human``),
    or nothing (no mode, or no deal yet)."""
    deal = game.deal
    if mode is None or deal is None:
        return None
    text = render_text(deal, game.totals)
    if mode == "ansi":
        return text
    print(text)
    return None


def render_text(deal: Deal, totals: tuple[int, int, int]) -> str:
    """Phase, seat to move, bid or contract, the hands, the trick and the tricks taken."""
    phase = deal.phase
    mover = "nobody" if deal.to_move is None else f"seat {deal.to_move}"
    bid = "none" if deal.high_bid is None else deal.high_bid.pretty()
    head = f"{phase.name.lower()} · {mover} to move · dealer seat {deal.dealer} · high bid {bid}"
    if deal.contract is not None:
        head += f" · contract {deal.contract.pretty()} by seat {deal.declarer}"
    lines = [head + f" · totals {totals[0]} {totals[1]} {totals[2]}"]
    for seat in range(3):
        lines.append(f"  seat {seat}: {deal.hand(seat).pretty():<36} tricks {deal.tricks[seat]}")
    if deal.current_trick:
        lines.append("  trick: " + "  ".join(f"{s}:{c.pretty()}" for s, c in deal.current_trick))
    if phase is Phase.OVER and deal.result is not None:
        lines.append(f"  scores {' '.join(str(x) for x in deal.result.scores)}")
    if deal.redeal is not None:
        lines.append("  " + deal.redeal.text)
    return "\n".join(lines)
