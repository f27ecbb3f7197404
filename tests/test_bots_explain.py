"""Hints (:mod:`paston.bots.explain`): the options of the ``pimc`` player for the seat to
move, valued from that seat's view only.

- another deal the seat cannot tell apart (hidden cards swapped, consistently with
  everything its view shows) gives the same hint for the same seed;
- the options are distinct legal actions, in the player's order of preference, with the
  player's choice first, and the choice is what ``PimcPlayer`` plays with that seed;
- every kind of decision is covered: bid or pass, discard, trump or surrender, whist or
  pass, card.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tests.bots_helpers import played_to, swap_cards

from paston.actions import PASS, SURRENDER, WHIST, Kind
from paston.bots.explain import Hint, explain
from paston.bots.heuristic import HeuristicPlayer
from paston.bots.pimc import BID_MARGIN, SURRENDER_SCORE, PimcPlayer
from paston.cards import ALL_CARDS, JACK_OF_SPADES, SEVEN_OF_SPADES
from paston.deal import Deal, Phase
from paston.dealing import shuffled_deck
from paston.errors import IllegalActionError

LEVEL = 1  # the fastest level: these tests look at the shape, not the strength


def check_shape(hint: Hint, deal: Deal, seed: int) -> None:
    """What every hint must be: legal distinct options, best first, the player's choice."""
    legal = deal.legal_actions()
    actions = [o.action for o in hint.options]
    assert len(set(actions)) == len(actions)
    assert set(actions) <= set(legal)
    assert hint.chosen == actions[0]
    assert hint.seat == deal.to_move and hint.phase is deal.phase and hint.level == LEVEL
    assert deal.to_move is not None
    if len(legal) > 1:
        assert hint.chosen == PimcPlayer(seed=seed, level=LEVEL).choose(deal.view(deal.to_move))
    scores = [o.score for o in hint.options]
    if deal.phase is Phase.AUCTION and len(hint.options) == 2:
        bid = next(o for o in hint.options if o.action.kind is Kind.BID)
        assert (hint.chosen == bid.action) == (bid.score > BID_MARGIN)
        assert next(o for o in hint.options if o.action is PASS).score == 0.0
    else:
        assert scores == sorted(scores, reverse=True)
    if deal.phase is Phase.PLAY:
        assert actions and set(actions) == set(legal)  # every legal card is valued
        for o in hint.options:
            assert o.tricks is not None and 0 <= o.tricks <= 10
    else:
        assert all(o.tricks is None for o in hint.options)
    if deal.phase is Phase.DEFENCE:
        assert set(actions) == {WHIST, PASS}
    if deal.phase is Phase.TRUMP and SURRENDER in legal:
        assert next(o for o in hint.options if o.action is SURRENDER).score == SURRENDER_SCORE


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    deck_seed=st.integers(0, 10_000),
    dealer=st.integers(0, 2),
    steps=st.integers(0, 34),
    pick=st.integers(0, 10_000),
    seed=st.integers(0, 100),
)
def test_hint_same_for_worlds_the_seat_cannot_tell_apart(
    deck_seed: int, dealer: int, steps: int, pick: int, seed: int
) -> None:
    deck = shuffled_deck(random.Random(deck_seed))
    deal, actions = played_to(deck, dealer, steps, deck_seed)
    assume(deal.to_move is not None and not deal.is_over)
    seat = deal.to_move
    assert seat is not None
    view = deal.view(seat)
    hidden = [c for c in range(32) if not view.known_cards().mask >> c & 1]
    # same suit (the plays stay legal, R6.2); never J♠ or 7♠, whose place a seat may learn
    # from the rules themselves (R1.5, R2.1, R3.4: the first bidder, the all-pass declarer)
    pairs = [
        (x, y)
        for x in hidden
        for y in hidden
        if x < y and x >> 3 == y >> 3 and not {x, y} & {JACK_OF_SPADES, SEVEN_OF_SPADES}
    ]
    assume(pairs)
    x, y = pairs[pick % len(pairs)]
    # the other deal: x and y change places in the deck, and in the actions that name them
    # (only actions the seat did not see can: neither card is known to it)
    other = list(deck)
    i, j = other.index(x), other.index(y)
    other[i], other[j] = other[j], other[i]
    try:
        twin = Deal(other, dealer=dealer)
    except ValueError:  # R1.2: the swap put 7♠ at the bottom of the deck
        assume(False)
        raise
    assume(twin.redeal is None)
    for action in actions:
        twin.apply(swap_cards(action, x, y))
    assert twin.hand_mask(seat) == deal.hand_mask(seat)
    assert twin.view(seat) == view, "the seat cannot tell the two deals apart"
    first = explain(view, level=LEVEL, seed=seed)
    second = explain(twin.view(seat), level=LEVEL, seed=seed)
    assert first == second
    check_shape(first, deal, seed)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck_seed=st.integers(0, 10_000), steps=st.integers(0, 34), seed=st.integers(0, 100))
def test_hint_options_are_legal_best_first_with_the_players_choice(
    deck_seed: int, steps: int, seed: int
) -> None:
    deal, _ = played_to(shuffled_deck(random.Random(deck_seed)), deck_seed % 3, steps, deck_seed)
    assume(deal.to_move is not None and not deal.is_over)
    assert deal.to_move is not None
    check_shape(explain(deal.view(deal.to_move), level=LEVEL, seed=seed), deal, seed)


def test_hint_covers_every_kind_of_decision() -> None:
    """Bid or pass, discard, trump or surrender, whist or pass, card: each shows up in
    seeded deals, with the options its kind has."""
    seen: dict[Phase, Hint] = {}
    for deck_seed in range(60):
        deal, _ = played_to(shuffled_deck(random.Random(deck_seed)), deck_seed % 3, 0, deck_seed)
        bots = [HeuristicPlayer(seed=deck_seed + s) for s in range(3)]
        while deal.to_move is not None and not deal.is_over:
            if deal.phase not in seen:
                hint = explain(deal.view(deal.to_move), level=LEVEL, seed=deck_seed)
                check_shape(hint, deal, deck_seed)
                seen[deal.phase] = hint
            deal.apply(bots[deal.to_move].choose(deal.view(deal.to_move)))
        if len(seen) == 5:
            break
    assert set(seen) == {Phase.AUCTION, Phase.DISCARD, Phase.TRUMP, Phase.DEFENCE, Phase.PLAY}
    assert {o.action.kind for o in seen[Phase.AUCTION].options} <= {Kind.BID, Kind.PASS}
    assert all(o.action.kind is Kind.DISCARD for o in seen[Phase.DISCARD].options)
    assert len(seen[Phase.DISCARD].options) >= 2
    assert {o.action.kind for o in seen[Phase.TRUMP].options} <= {Kind.TRUMP, Kind.SURRENDER}
    assert all(h.worlds > 0 for p, h in seen.items() if len(h.options) > 1)


def test_hint_is_deterministic_for_a_seed_and_serialises() -> None:
    deal = Deal(shuffled_deck(random.Random(5)), dealer=0)
    assert deal.to_move is not None
    view = deal.view(deal.to_move)
    hint = explain(view, level=LEVEL, seed=3)
    assert hint == explain(view, level=LEVEL, seed=3)
    data = hint.to_dict()
    assert data["chosen"] == str(hint.chosen) and data["level"] == LEVEL
    assert [o["action"] for o in data["options"]] == [str(o.action) for o in hint.options]  # type: ignore[attr-defined]


def test_hint_refuses_a_seat_not_to_move_and_a_bad_level() -> None:
    deal = Deal(shuffled_deck(random.Random(5)), dealer=0)
    assert deal.to_move is not None
    other = (deal.to_move + 1) % 3
    with pytest.raises(IllegalActionError) as info:
        explain(deal.view(other), level=LEVEL)
    assert info.value.code == "not-your-turn"
    with pytest.raises(IllegalActionError):
        explain(deal.public_view(), level=LEVEL)
    with pytest.raises(ValueError, match="1 to 5"):
        explain(deal.view(deal.to_move), level=9)


def test_hint_card_tricks_are_the_seats_expected_tricks() -> None:
    """In card play ``tricks`` is the seat's own expected total of tricks: never more than
    the tricks it has won plus the cards it still holds."""
    for deck_seed in range(30):
        deal, _ = played_to(shuffled_deck(random.Random(deck_seed)), 0, 30, deck_seed)
        if deal.phase is not Phase.PLAY or deal.to_move is None:
            continue
        seat = deal.to_move
        hint = explain(deal.view(seat), level=LEVEL, seed=1)
        for o in hint.options:
            assert o.tricks is not None
            won = deal.tricks[seat]
            assert won <= o.tricks <= won + deal.hand_mask(seat).bit_count()
        return
    pytest.fail("no card play reached")


def test_all_cards_name_indices() -> None:
    # the swap helper relies on Card.index being the card's number 0-31
    assert [c.index for c in ALL_CARDS] == list(range(32))
