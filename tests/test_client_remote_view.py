"""A seat's view rebuilt from the server's JSON (paston.client.remote_view) is exactly the view
the server encoded, at every point of random deals and for every audience; anything
else is refused with ViewError, never a crash."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paston.client.remote_view import ViewError, view_from_json
from paston.deal import Deal
from paston.server.tables.serialize import view_json


def deal_after(seed: int, steps: int) -> Deal:
    rng = random.Random(seed)
    deal = Deal.random(rng, dealer=seed % 3)
    for _ in range(steps):
        if deal.is_over:
            break
        deal.apply(rng.choice(deal.legal_actions()), deal.to_move)
    return deal


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 45))
def test_every_view_comes_back_exactly_from_its_json(seed: int, steps: int) -> None:
    deal = deal_after(seed, steps)
    for seat in (0, 1, 2, None):
        view = deal.view(seat, (3, -4, 5)) if seat is not None else deal.public_view((3, -4, 5))
        sent = json.loads(json.dumps(view_json(view)))  # as it crosses the wire
        assert view_from_json(sent, rules=view.rules, first_deal=view.first_deal) == view


def test_a_finished_deal_keeps_its_result_and_tricks() -> None:
    deal = deal_after(4, 200)
    assert deal.is_over
    view = deal.view(0, (0, 0, 0))
    back = view_from_json(view_json(view), rules=view.rules, first_deal=view.first_deal)
    assert back.result == view.result and back.completed_tricks == view.completed_tricks


@pytest.mark.parametrize(
    "change",
    [
        lambda v: v.pop("history"),
        lambda v: v.update(hand=["ZZ"]),
        lambda v: v.update(phase="lunch"),
        lambda v: v.update(legal=["fly away"]),
        lambda v: v.update(hand_sizes=[10]),
        lambda v: v.update(history=[{"seat": 0, "type": "nap"}]),
    ],
)
def test_a_view_that_is_not_one_is_refused_with_a_reason(change: object) -> None:
    deal = deal_after(9, 20)
    view = deal.view(0, (0, 0, 0))
    sent = view_json(view)
    change(sent)  # type: ignore[operator]
    with pytest.raises(ViewError):
        view_from_json(sent, rules=view.rules, first_deal=view.first_deal)
