"""The fixed-size encodings (:mod:`paston.encoding`) for learning programs.

- every action has one index and back, and bad indices are refused with a clear error;
- on every state of thousands of random deals the legal mask is exactly ``legal_actions()``;
- the observation of a seat is the same in two deals that differ only in cards the seat
  cannot see (hidden cards swapped consistently with its view), the full one is not;
- the blocks of the layout say what the rules say (the prikup only for the declarer, R4.1;
  voids shown by not following, R6.2; the auction and the answers as they were given).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tests.bots_helpers import played_to, swap_cards

from helpers import act, make_deal, play_cards, weighted_choice
from paston import encoding as enc
from paston.actions import NUM_ACTION_IDS, Action
from paston.cards import JACK_OF_SPADES, SEVEN_OF_SPADES
from paston.deal import Deal
from paston.dealing import shuffled_deck
from paston.encoding_fast import DealEncoder
from paston.errors import ParseError
from paston.match import Match
from paston.rules import PRESETS, Rules

RULE_SETS = list(PRESETS.values())


def match_states(seed: int, deals: int) -> Iterator[Match]:
    """Every state with a deal in progress of ``deals`` deals of seeded random games, under
    the presets in turn."""
    rng = random.Random(seed)
    played = 0
    while played < deals:
        rules = RULE_SETS[played % len(RULE_SETS)]
        match = Match(first_dealer=rng.randrange(3), rules=rules, rng=random.Random(rng.random()))
        while not match.is_over and played < deals:
            deal = match.deal
            assert deal is not None
            yield match
            match.apply(weighted_choice(rng, deal), deal.to_move)
            played += match.deal is not deal


# --- actions -------------------------------------------------------------------------------
def test_every_index_is_one_action_and_back() -> None:
    assert enc.ACTION_COUNT == 541 == len(enc.ACTIONS)
    assert len(set(enc.ACTIONS)) == enc.ACTION_COUNT
    for i in range(enc.ACTION_COUNT):
        assert enc.action_index(enc.index_action(i)) == i
        assert enc.index_action(np.int64(i)) is enc.ACTIONS[i]
    seen = 0
    for aid in range(NUM_ACTION_IDS):
        try:
            action = Action.from_id(aid)
        except ParseError:
            continue
        seen += 1
        assert enc.index_action(enc.action_index(action)) is action
    assert seen == enc.ACTION_COUNT


def test_the_first_45_indices_are_the_engine_ids_and_discards_follow_in_order() -> None:
    assert all(enc.action_index(Action.from_id(i)) == i for i in range(45))
    pairs = [tuple(c.index for c in enc.index_action(i).cards) for i in range(45, enc.ACTION_COUNT)]
    assert pairs == sorted(pairs) and pairs[0] == (0, 1) and pairs[-1] == (30, 31)
    for k, (a, b) in enumerate(pairs):
        assert enc.discard_index(b, a) == enc.discard_index(a, b) == 45 + k


@pytest.mark.parametrize("bad", [-1, 541, 10**9, True, 1.0, "3", None])
def test_bad_indices_are_refused_with_a_clear_error(bad: object) -> None:
    with pytest.raises(ParseError, match="no action has index"):
        enc.index_action(bad)  # type: ignore[arg-type]


def test_bad_output_buffers_are_refused() -> None:
    view = Deal.random(random.Random(1), dealer=0).view(1)
    with pytest.raises(ValueError, match="int8 array of shape"):
        enc.legal_mask(view, np.zeros(enc.ACTION_COUNT, np.float32))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="float32 array of shape"):
        enc.observe(view, np.zeros(enc.OBSERVATION_SIZE + 1, np.float32))
    with pytest.raises(ValueError, match="spectator"):
        enc.observe(Deal.random(random.Random(1), dealer=0).public_view())


# --- the mask is legal_actions() -------------------------------------------------------------
def test_mask_equals_legal_actions_on_every_state_of_many_deals() -> None:
    mask = np.zeros(enc.ACTION_COUNT, np.int8)
    states = 0
    for match in match_states(seed=14, deals=1000):
        deal = match.deal
        assert deal is not None
        for seat in range(3):
            view = match.view(seat)
            out = enc.legal_mask(view, mask)
            assert out is mask
            legal = {enc.action_index(a) for a in deal.legal_actions()} if seat == deal.to_move else set()
            assert set(np.flatnonzero(mask).tolist()) == legal
        states += 1
    assert states > 25_000


def test_observations_are_finite_and_one_hot_groups_hold_one() -> None:
    obs = np.zeros(enc.OBSERVATION_SIZE, np.float32)
    for match in match_states(seed=5, deals=150):
        for seat in range(3):
            enc.observe(match.view(seat), obs)
            assert np.isfinite(obs).all()
            for base, size in ((enc.PHASE, 7), (enc.DEALER, 3), (enc.HIGH_BID, 6), (enc.TARGET, 1)):
                assert np.count_nonzero(obs[base : base + size]) == 1
            tricks = obs[enc.TRICKS : enc.TRICKS + 33].reshape(3, 11)
            assert (np.count_nonzero(tricks, axis=1) == 1).all()
            assert obs[enc.HAND : enc.HAND + 32].sum() == match.deals[-1].hand_mask(seat).bit_count()


# --- hidden cards ----------------------------------------------------------------------------
def twin(deck: list[int], dealer: int, steps: int, viewer: int, pick: int) -> tuple[Deal, Deal] | None:
    """A deal after ``steps`` actions and its twin: two hidden cards of one suit (never J♠
    or 7♠, which R2.1 and R3.4 locate) swapped in the deck and in every action, so that
    the viewer cannot tell them apart; ``None`` when no such pair exists or the swap
    changes the deal's course (a redeal, 7♠ at the bottom)."""
    deal, actions = played_to(deck, dealer, steps, dealer + steps)
    if deal.redeal is not None:
        return None
    known = deal.view(viewer).known_cards().mask
    hidden = [c for c in range(32) if not known >> c & 1]
    pairs = [
        (x, y)
        for x in hidden
        for y in hidden
        if x < y and x >> 3 == y >> 3 and not {x, y} & {JACK_OF_SPADES, SEVEN_OF_SPADES}
    ]
    if not pairs:
        return None
    x, y = pairs[pick % len(pairs)]
    other = list(deck)
    i, j = other.index(x), other.index(y)
    other[i], other[j] = other[j], other[i]
    if other[31] == SEVEN_OF_SPADES:
        return None
    double = Deal(other, dealer=dealer)
    if double.redeal is not None:
        return None
    for action in actions:
        double.apply(swap_cards(action, x, y))
    return deal, double


def _locations(deal: Deal) -> tuple[int, ...]:
    return (*(deal.hand_mask(s) for s in range(3)), deal.prikup, deal.discard.mask)


def check_twins(deal: Deal, double: Deal, viewer: int) -> None:
    view, other = deal.view(viewer, (3, -7, 12)), double.view(viewer, (3, -7, 12))
    assert view == other, "the seat cannot tell the two deals apart"
    assert enc.observe(view).tobytes() == enc.observe(other).tobytes()
    assert enc.legal_mask(view).tobytes() == enc.legal_mask(other).tobytes()
    full = enc.observe_full(deal, viewer, totals=(3, -7, 12))
    full_other = enc.observe_full(double, viewer, totals=(3, -7, 12))
    assert full[: enc.OBSERVATION_SIZE].tobytes() == enc.observe(view).tobytes()
    assert (full.tobytes() == full_other.tobytes()) == (_locations(deal) == _locations(double))
    fast, fast_other = encoder_of(deal, (3, -7, 12)), encoder_of(double, (3, -7, 12))
    assert fast.observation(viewer).tobytes() == fast_other.observation(viewer).tobytes()
    assert fast.observation(viewer).tobytes() == enc.observe(view).tobytes()
    assert fast.full_observation(viewer).tobytes() == full.tobytes()


def test_observation_is_the_same_in_worlds_that_differ_only_in_hidden_cards() -> None:
    rng = random.Random(2026)
    checked = differ = 0
    for k in range(600):
        deck = shuffled_deck(random.Random(rng.random()))
        viewer = rng.randrange(3)
        pair = twin(deck, k % 3, rng.randrange(0, 36), viewer, rng.randrange(10_000))
        if pair is None:
            continue
        check_twins(*pair, viewer)
        checked += 1
        differ += _locations(pair[0]) != _locations(pair[1])
    assert checked > 400 and differ > 300


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    deck_seed=st.integers(0, 100_000),
    dealer=st.integers(0, 2),
    steps=st.integers(0, 40),
    viewer=st.integers(0, 2),
    pick=st.integers(0, 10_000),
)
def test_hidden_cards_never_reach_the_observation(
    deck_seed: int, dealer: int, steps: int, viewer: int, pick: int
) -> None:
    pair = twin(shuffled_deck(random.Random(deck_seed)), dealer, steps, viewer, pick)
    assume(pair is not None)
    assert pair is not None
    check_twins(*pair, viewer)


# --- what the blocks say ---------------------------------------------------------------------
HANDS = {
    1: "AS KS QS AC KC QC AD KD QD 8H",
    2: "JS TS 9S JC TC 9C JD TD 9D 9H",
    0: "8S 7C 8C 7D 8D AH KH QH JH TH",
}


def test_r4_1_prikup_and_discard_only_for_the_declarer() -> None:
    deal = make_deal(dealer=0, hands=HANDS, prikup="7S 7H")
    act(deal, "bid spades; pass; pass")  # seat 1 declares
    prikup = enc.observe(deal.view(1))[enc.PRIKUP : enc.PRIKUP + 32]
    assert np.flatnonzero(prikup).tolist() == [0, 24]  # 7♠ 7♥
    act(deal, "discard 7S 7H")
    for seat in (0, 2):
        obs = enc.observe(deal.view(seat))
        assert not obs[enc.PRIKUP : enc.DISCARD + 32].any()
        assert obs[enc.DECLARER + (1 - seat) % 3] == 1
    mine = enc.observe(deal.view(1))
    assert np.flatnonzero(mine[enc.DISCARD : enc.DISCARD + 32]).tolist() == [0, 24]
    assert mine[enc.DECLARER] == 1 and mine[enc.PHASE + 2] == 1  # the trump phase


def test_r3_auction_and_r5_answers_as_given() -> None:
    deal = make_deal(dealer=0, hands=HANDS, prikup="7S 7H")
    act(deal, "bid spades; bid clubs; pass; bid diamonds; pass; discard 7S 7H; trump hearts; whist; pass")
    obs = enc.observe(deal.view(0))  # seat 0: seat 1 is on its left (1), seat 2 on its right (2)
    assert obs[enc.BID_BY + 3 * 0 + 1] == obs[enc.BID_BY + 3 * 1 + 2] == obs[enc.BID_BY + 3 * 2 + 1] == 1
    assert obs[enc.PASSED_AT + 6 * 0 + 2] == 1  # seat 0 passed over clubs
    assert obs[enc.PASSED_AT + 6 * 2 + 3] == 1  # seat 2 passed over diamonds
    assert obs[enc.HIGH_BID + 3] == obs[enc.CONTRACT + 3] == 1
    assert obs[enc.WHIST_ANSWER + 2 * 2 + 0] == 1  # seat 2 said whist
    assert obs[enc.WHIST_ANSWER + 2 * 0 + 1] == 1  # seat 0 passed
    assert obs[enc.PHASE + 4] == obs[enc.TO_MOVE + 1] == 1  # play; the declarer (left) leads


def test_r6_2_voids_shown_and_tricks() -> None:
    deal = make_deal(dealer=0, hands=HANDS, prikup="7S 7H")
    act(deal, "bid spades; pass; pass; discard 7S 7H; trump clubs; whist; whist")
    play_cards(deal, "8H 9H AH")  # seat 0 wins; seats 1 and 2 followed
    play_cards(deal, "KH")  # seat 0 leads hearts again: seat 1 has none, and plays a trump
    play_cards(deal, "AC")
    obs = enc.observe(deal.view(2))
    assert obs[enc.VOID + 4 * 2 + 3] == 1  # seat 1 (right of seat 2) is void in hearts
    assert not obs[enc.VOID + 4 * 2 + 1]  # but trumped, so holds clubs maybe
    assert obs[enc.TRICKS + 11 * 1 + 1] == 1  # seat 0 (left of seat 2) took one trick
    assert obs[enc.LEADER + 1] == 1
    assert np.flatnonzero(obs[enc.TRICK : enc.TRICK + 96]).tolist() == [32 + 30, 64 + 15]
    play_cards(deal, "9C")  # seat 2 has no heart left either and trumps; the trick is done
    obs = enc.observe(deal.view(2))
    assert not obs[enc.TRICK : enc.TRICK + 96].any() and not obs[enc.LEADER : enc.LEADER + 3].any()
    assert obs[enc.PLAYED : enc.PLAYED + 96].sum() == 6


def test_r7_scores_and_r8_totals_in_the_observation() -> None:
    rules = Rules(target=601)
    match = Match(first_dealer=0, rules=rules, rng=random.Random(8))
    rng = random.Random(9)
    while match.completed_deals < 2:
        deal = match.deal
        assert deal is not None
        match.apply(weighted_choice(rng, deal), deal.to_move)
    finished = match.deals[-2]
    assert finished.result is not None
    obs = enc.observe(finished.view(1, match.totals))
    for seat in range(3):
        rel = (seat - 1) % 3
        assert obs[enc.SCORES + rel] == np.float32(finished.result.scores[seat] / enc.SCORE_SCALE)
        assert obs[enc.TOTALS + rel] == np.float32(match.totals[seat] / 601)
    assert obs[enc.TARGET] == np.float32(601 / 121) and obs[enc.PHASE + 5] == 1


# --- the fast path -----------------------------------------------------------------------------
def encoder_of(deal: Deal, totals: tuple[int, int, int] = (0, 0, 0)) -> DealEncoder:
    """A :class:`DealEncoder` that followed ``deal`` from its start."""
    encoder = DealEncoder()
    replay = deal.restarted()
    encoder.start(replay, totals)
    for event in deal.events:
        encoder.push(replay, replay.apply(event.action, event.seat))
    return encoder


def test_the_fast_encoder_equals_the_view_encoding_on_every_state_of_many_deals() -> None:
    encoder = DealEncoder()
    obs = np.zeros(enc.OBSERVATION_SIZE, np.float32)
    full = np.zeros(enc.FULL_OBSERVATION_SIZE, np.float32)
    mask = np.zeros(enc.ACTION_COUNT, np.int8)
    current: Deal | None = None
    states = 0
    for match in match_states(seed=41, deals=700):
        deal = match.deal
        assert deal is not None
        if deal is not current:
            if current is not None:  # the finished deal, as shown with the new totals
                assert current.is_over
                encoder.push(current, current.events[-1])
                encoder.set_totals(match.totals, match.rules.target)
                for seat in range(3):
                    shown = enc.observe(current.view(seat, match.totals))
                    assert encoder.observation(seat).tobytes() == shown.tobytes()
                assert not encoder.mask.any() and encoder.to_move is None
            if deal.event_count:  # a match restarts nothing: a new deal has no action yet
                raise AssertionError("a new deal with actions")
            encoder.start(deal, match.totals)
            current = deal
        else:
            event = deal.events[-1]
            encoder.push(deal, event)
        for seat in range(3):
            view = match.view(seat)
            assert encoder.observation(seat, obs).tobytes() == enc.observe(view).tobytes()
            want = enc.observe_full(deal, seat, totals=match.totals)
            assert encoder.full_observation(seat, full).tobytes() == want.tobytes()
        assert encoder.to_move == deal.to_move
        assert encoder.mask.tobytes() == enc.legal_mask(match.view(deal.to_move), mask).tobytes()
        states += 1
    assert states > 18_000
