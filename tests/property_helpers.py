"""Helpers for the property tests (``test_properties*.py``): every action id, random games
driven through the engine and the reference model in lockstep, the hypothesis strategies
and settings, and the checks of snapshots and views."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from enum import Enum
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from helpers import weighted_choice
from paston.actions import NUM_ACTION_IDS, Action, Kind
from paston.cards import ALL_CARDS, Card, CardSet
from paston.deal import Deal, Phase
from paston.errors import ParseError
from paston.match import Match
from paston.rules import Rules
from reference_model import RefDeal, RefGame, action_key

# --------------------------------------------------------------------------------------
# Every action id the engine knows (unused ids raise ParseError).


def _all_actions() -> tuple[Action, ...]:
    out = []
    for i in range(NUM_ACTION_IDS):
        try:
            out.append(Action.from_id(i))
        except ParseError:
            continue
    return tuple(out)


ALL_ACTIONS = _all_actions()
FULL_MASK = (1 << 32) - 1


# --------------------------------------------------------------------------------------
# Driving games.

PHASE_NAMES = {
    Phase.AUCTION: "auction",
    Phase.DISCARD: "discard",
    Phase.TRUMP: "trump",
    Phase.DEFENCE: "defence",
    Phase.PLAY: "play",
    Phase.OVER: "over",
    Phase.REDEAL: "redeal",
}


def codes(mask_or_set: int | CardSet) -> set[str]:
    cs = CardSet(mask_or_set) if isinstance(mask_or_set, int) else mask_or_set
    return {str(c) for c in cs}


def agree(deal: Deal, ref: RefDeal) -> None:
    """The engine's deal and the reference model are in the same state."""
    assert PHASE_NAMES[deal.phase] == ref.phase
    assert deal.to_move == ref.to_move
    assert deal.redeal == ref.redeal
    assert deal.first_bidder == ref.first_bidder
    assert deal.declarer == ref.declarer
    for s in range(3):
        assert codes(deal.hand(s)) == ref.hands[s], f"hand of seat {s}"
        assert codes(deal.dealt[s]) == set(ref.dealt[s])
    assert codes(deal.prikup) == set(ref.prikup)
    assert codes(deal.discard) == set(ref.discard)
    assert codes(deal.played_mask) == ref.played
    assert list(deal.tricks) == ref.tricks
    assert {action_key(a) for a in deal.legal_actions()} == ref.legal()
    if ref.result is None:
        assert deal.result is None
    else:
        r = deal.result
        assert r is not None
        got = {
            "declarer": r.declarer,
            "outcome": r.outcome,
            "contract": None if r.contract is None else r.contract.name_in_record,
            "defenders": set(r.defenders),
            "tricks": list(r.tricks),
            "scores": list(r.scores),
        }
        assert got == ref.result


StepHook = Callable[[Match, Deal, RefDeal], None]


def run_game(
    seed: int,
    first_dealer: int,
    rules: Rules,
    *,
    max_deals: int = 3,
    max_actions: int | None = None,
    before: StepHook | None = None,
    after: StepHook | None = None,
    on_deal_end: Callable[[Match, Deal, RefDeal], None] | None = None,
) -> tuple[Match, RefGame]:
    """Play a random game (up to ``max_deals`` completed deals) in lockstep with the model."""
    rng = random.Random(seed ^ 0x5A5A5A)
    match = Match(first_dealer=first_dealer, rng=random.Random(seed), rules=rules)
    game = RefGame(first_dealer, rules)

    def sync() -> None:
        while len(game.deals) < len(match.deals):
            deal = match.deals[len(game.deals)]
            ref = game.new_deal([str(ALL_CARDS[c]) for c in deal.deck])
            assert deal.dealer == ref.dealer, "dealer (R1.6, R2)"
            assert deal.first_deal == ref.first_deal
            agree(deal, ref)
            if ref.over and on_deal_end is not None:
                on_deal_end(match, deal, ref)
        assert list(match.totals) == game.totals
        assert list(match.winners) == game.winners
        assert match.is_over == bool(game.winners)

    sync()
    n = 0
    while not match.is_over and match.completed_deals < max_deals:
        if max_actions is not None and n >= max_actions:
            break
        deal = match.deal
        assert deal is not None
        ref = game.deals[-1]
        agree(deal, ref)
        if before is not None:
            before(match, deal, ref)
        action = weighted_choice(rng, deal)
        seat = deal.to_move
        assert seat is not None
        key = action_key(action)
        match.apply(action, seat)
        n += 1
        ref.apply(key, seat)
        agree(deal, ref)
        if after is not None:
            after(match, deal, ref)
        if ref.over:
            game.account(ref)
            if on_deal_end is not None:
                on_deal_end(match, deal, ref)
        sync()
    return match, game


# --------------------------------------------------------------------------------------
# Strategies.

rules_st = st.builds(
    Rules,
    lone_defender=st.sampled_from(["graded", "flat"]),
    surrender_bonus=st.sampled_from([2, 0]),
    all_pass_declarer=st.sampled_from(["spade-jack", "first-bidder"]),
    second_dealer=st.sampled_from(["first-bidder", "rotate"]),
    target=st.sampled_from([10, 20, 40, 121]),
)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
dealers = st.integers(min_value=0, max_value=2)

CHEAP = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def snapshot(deal: Deal) -> tuple[Any, ...]:
    return (
        deal.phase,
        deal.to_move,
        deal.events,
        tuple(deal.hand_mask(s) for s in range(3)),
        deal.tricks,
        deal.completed_tricks,
        deal.current_trick,
        deal.legal_actions(),
        deal.discard,
        deal.declarer,
        deal.contract,
        deal.high_bid,
        deal.in_auction,
        deal.whist_answers,
        deal.defenders,
        deal.result,
        deal.trump_suit,
        deal.played_mask,
        deal.active,
        deal.is_over,
        tuple(deal.view(s) for s in range(3)),
        deal.public_view(),
    )


def cards_in(obj: object, path: str = "view") -> Iterator[tuple[str, Card]]:
    """Every Card reachable from a view object, with where it was found."""
    if isinstance(obj, Card):
        yield path, obj
    elif isinstance(obj, CardSet):
        for c in obj:
            yield path, c
    elif isinstance(obj, Action):
        for c in obj.cards:
            yield path, c
    elif obj is None or isinstance(obj, str | int | float | bool | Enum):
        return
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from cards_in(getattr(obj, f.name), f"{path}.{f.name}")
    elif isinstance(obj, tuple | list | set | frozenset):
        for i, x in enumerate(obj):
            yield from cards_in(x, f"{path}[{i}]")
    elif isinstance(obj, dict):
        for k, x in obj.items():
            yield from cards_in(k, f"{path}<key>")
            yield from cards_in(x, f"{path}[{k!r}]")
    else:
        raise AssertionError(f"unexpected object of type {type(obj).__name__} at {path}")


def check_views(match: Match, deal: Deal, ref: RefDeal) -> None:
    played = codes(deal.played_mask)
    assert played == ref.played
    for seat in range(3):
        v = deal.view(seat)
        assert v.seat == seat
        assert codes(v.hand) == ref.hands[seat], "a view's hand is the seat's current hand"
        is_declarer = ref.declarer == seat
        allowed = set(ref.dealt[seat]) | played
        if is_declarer:
            assert v.prikup is not None and codes(v.prikup) == set(ref.prikup)
            assert v.discard is not None and codes(v.discard) == set(ref.discard)
            allowed |= set(ref.prikup) | set(ref.discard)
        else:
            assert v.prikup is None, "only the declarer sees the prikup (R4.1)"
            assert v.discard is None, "only the declarer sees the discard (R4.1)"
        for where, card in cards_in(v, f"view({seat})"):
            assert str(card) in allowed, f"{where} reveals {card} to seat {seat}"
        assert codes(v.known_cards()) <= allowed
        # the history: a discard is public as an act, its cards only for the declarer
        assert len(v.history) == len(deal.events)
        for ev, real in zip(v.history, deal.events, strict=True):
            assert ev.seat == real.seat and ev.kind is real.action.kind
            if real.action.kind is Kind.DISCARD and not is_declarer:
                assert ev.action is None
            else:
                assert ev.action is real.action
        assert v.hand_sizes == tuple(len(h) for h in ref.hands)
    pv = deal.public_view()
    assert pv.seat is None
    assert len(pv.hand) == 0 and pv.prikup is None and pv.discard is None and pv.legal_actions == ()
    for where, card in cards_in(pv, "public"):
        assert str(card) in played, f"{where} reveals {card} to the public"
    for ev in pv.history:
        if ev.kind is Kind.DISCARD:
            assert ev.action is None
    # the match's views are the current deal's, with the totals
    if match.deal is deal:
        for seat in (0, 1, 2, None):
            mv = match.view(seat)
            assert mv.totals == match.totals
            assert mv == (
                deal.view(seat, match.totals) if seat is not None else deal.public_view(match.totals)
            )
