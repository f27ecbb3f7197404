"""The compiled deal (``paston.env._fastdeal``) is a mirror of the engine: on every state of
thousands of random deals, under every rule switch and with the first deal's rules on and
off, its mask is ``Deal.legal_actions()``, every seat's observation and full observation
are ``encoding.observe(deal.view(seat))`` and ``observe_full``, and its scores and redeals
are the engine's, for a :class:`~paston.deal.Deal` built from the cards the core dealt and
driven by the same actions. Illegal actions change nothing; bad arguments raise clear
errors."""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paston import encoding as enc
from paston.actions import Action
from paston.cards import JACK_OF_SPADES, SEVEN_OF_SPADES
from paston.deal import Deal
from paston.encoding_fast import DealEncoder
from paston.env import _fastdeal
from paston.env.fastdeal import ILLEGAL, OVER, VOID, FastDeal, layout
from paston.env.game import EpisodeGame
from paston.match import Match
from paston.phases import Phase
from paston.result import Redeal
from paston.rules import RULE_CHOICES, Rules

SWITCHES = ("lone_defender", "surrender_bonus", "all_pass_declarer", "second_dealer")
VARIANTS = [
    (Rules(**dict(zip(SWITCHES, values, strict=True)), target=61 if values[0] == "flat" else 121), first)  # type: ignore[arg-type]
    for values in itertools.product(*(RULE_CHOICES[s] for s in SWITCHES))
    for first in (False, True)
]
REDEALS = list(Redeal)


def engine_mask(deal: Deal) -> np.ndarray:
    mask = np.zeros(enc.ACTION_COUNT, np.int8)
    for action in deal.legal_actions():
        mask[enc.action_index(action)] = 1
    return mask


def check_state(fast: FastDeal, deal: Deal, encoder: DealEncoder, views: bool) -> None:
    """The core's state and arrays against the engine's deal (and the encoder)."""
    core = fast.core
    assert core.phase == int(deal.phase)
    if deal.phase is Phase.REDEAL:
        assert core.to_move == VOID and deal.redeal is not None
        assert core.redeal_reason == REDEALS.index(deal.redeal)
    else:
        assert core.to_move == (OVER if deal.to_move is None else deal.to_move)
        assert core.redeal_reason == -1
    assert core.scores == deal.scores
    assert core.declarer == (-1 if deal.declarer is None else deal.declarer)
    assert (fast.mask == engine_mask(deal)).all()
    assert (fast.mask == encoder.mask).all()
    assert (fast.full == encoder.full).all()
    if views:
        for seat in range(3):
            assert (fast.full[seat] == enc.observe_full(deal, seat)).all(), f"seat {seat}, {deal.phase}"


def play_deals(
    rules: Rules, first_deal: bool, seed: int, deals: int, views_every: int = 1
) -> Iterator[tuple[FastDeal, Deal]]:
    """Random deals played by the engine's legal actions, the core following; every
    state checked (against the views in every ``views_every``-th deal)."""
    rng = random.Random(seed)
    fast = FastDeal(rules, first_deal)
    encoder = DealEncoder()
    for n in range(deals):
        views = n % views_every == 0
        fast.reset(rng)
        while True:
            core = fast.core
            deal = Deal(core.deck, dealer=core.dealer, rules=rules, first_deal=first_deal)
            assert not deal.is_over  # deals void at once (R1.4, R1.5) are dealt again
            assert core.action_count == 0 and deal.first_bidder == core.to_move
            encoder.start(deal)
            check_state(fast, deal, encoder, views)
            while not deal.is_over:
                legal = deal.legal_actions()
                action = legal[rng.randrange(len(legal))]
                code = core.step(enc.action_index(action))
                encoder.push(deal, deal.apply(action))
                assert code == (deal.to_move if deal.to_move is not None else VOID if deal.redeal else OVER)
                check_state(fast, deal, encoder, views)
            assert core.actions == tuple(enc.action_index(e.action) for e in deal.events)
            if deal.redeal is None:
                break
            fast.redeal()  # R3.4: the same dealer deals again
            assert fast.core.dealer == deal.dealer
        yield fast, deal


VARIANT_IDS = [
    "-".join(str(getattr(r, s)) for s in SWITCHES) + f"-target{r.target}" + ("-first" if f else "")
    for r, f in VARIANTS
]


@pytest.mark.parametrize("variant", range(len(VARIANTS)), ids=VARIANT_IDS)
def test_the_core_is_the_engine_on_every_state_of_random_deals(variant: int) -> None:
    rules, first_deal = VARIANTS[variant]
    outcomes = set()
    for fast, deal in play_deals(rules, first_deal, seed=variant, deals=60, views_every=1):
        assert deal.result is not None
        outcomes.add(deal.result.outcome)
        assert fast.core.decisions >= deal.event_count
    assert len(outcomes) >= 2


def test_thousands_of_deals_against_the_encoder() -> None:
    """More deals, every state against the DealEncoder and legal_actions (the views are
    the other test's)."""
    for k, (rules, first_deal) in enumerate(VARIANTS[::3]):
        for _ in play_deals(rules, first_deal, seed=1000 + k, deals=250, views_every=10**9):
            pass


def seed_with_jack_and_seven_in_prikup(fast: FastDeal) -> random.Random:
    for seed in range(100_000):
        rng = random.Random(seed)
        fast.reset(random.Random(seed))
        if {fast.core.deck[6], fast.core.deck[7]} == {JACK_OF_SPADES, SEVEN_OF_SPADES}:
            return rng
    raise AssertionError("no seed found")


def test_r3_4_all_pass_with_jack_and_seven_in_the_prikup_is_void_and_dealt_again() -> None:
    rules = Rules()
    fast = FastDeal(rules)
    fast.reset(seed_with_jack_and_seven_in_prikup(fast))
    core = fast.core
    deal = Deal(core.deck, dealer=core.dealer, rules=rules)
    encoder = DealEncoder()
    encoder.start(deal)
    passing = enc.action_index(Action.parse("pass"))
    codes = []
    for _ in range(3):
        codes.append(core.step(passing))
        encoder.push(deal, deal.apply(Action.parse("pass")))
    assert codes[-1] == VOID and deal.redeal is Redeal.NO_JACK_NO_SEVEN
    check_state(fast, deal, encoder, views=True)
    assert core.step(passing) == ILLEGAL and fast.mask.sum() == 0
    mover = fast.redeal()
    assert core.deals == 2 and core.dealer == deal.dealer and core.action_count == 0
    assert mover == (deal.dealer + 1) % 3 and core.decisions == 3


def test_r3_4_all_pass_under_first_bidder_rules_makes_the_first_bidder_declarer() -> None:
    rules = Rules(all_pass_declarer="first-bidder")
    fast = FastDeal(rules)
    fast.reset(seed_with_jack_and_seven_in_prikup(fast))
    first = fast.core.to_move
    for _ in range(3):
        fast.core.step(enc.action_index(Action.parse("pass")))
    assert fast.core.phase == Phase.DISCARD and fast.core.declarer == first == fast.deal().declarer


def test_r1_4_and_r1_5_deals_void_at_once_are_never_shown() -> None:
    """Over many episodes no dealt hand holds the spade sequence, and under the first
    deal's rules the prikup never holds both J♠ and 7♠; the first bidder holds J♠ (or 7♠)."""
    fast = FastDeal(Rules(), first_deal=True)
    rng = random.Random(5)
    for _ in range(3000):
        fast.reset(rng)
        deal = Deal(fast.core.deck, dealer=fast.core.dealer, first_deal=True)
        assert not deal.is_over and deal.first_bidder == fast.core.to_move


def test_r6_2_the_core_refuses_cards_that_do_not_follow_suit_and_changes_nothing() -> None:
    refused = 0
    rng = random.Random(11)
    fast = FastDeal(Rules())
    for _ in range(300):
        fast.reset(rng)
        core = fast.core
        while core.to_move >= 0:
            illegal = np.flatnonzero(fast.mask == 0)
            index = int(illegal[rng.randrange(len(illegal))])
            full, mask, actions = fast.full.copy(), fast.mask.copy(), core.actions
            assert core.step(index) == ILLEGAL and not core.is_legal(index)
            assert (fast.full == full).all() and (fast.mask == mask).all() and core.actions == actions
            if core.phase == Phase.PLAY and index < 32:
                refused += 1
                assert fast.deal().why_illegal(Action.from_id(index)) is not None
            legal = np.flatnonzero(fast.mask)
            code = core.step(int(legal[rng.randrange(len(legal))]))
            if code == VOID:
                fast.redeal()
    assert refused > 100


def test_r7_scores_of_the_core_are_the_engines_for_every_outcome() -> None:
    seen = set()
    for rules in (Rules(), Rules(lone_defender="flat", surrender_bonus=0)):
        for _, deal in play_deals(rules, False, seed=3, deals=400, views_every=10**9):
            assert deal.result is not None
            seen.add((deal.result.outcome, len(deal.result.defenders)))
    assert len(seen) >= 4


def test_the_same_seed_gives_the_same_episodes() -> None:
    def episode(seed: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        fast = FastDeal(Rules())
        rng = random.Random(seed)
        fast.reset(rng)
        while fast.core.to_move >= 0:
            legal = np.flatnonzero(fast.mask)
            fast.core.step(int(legal[rng.randrange(len(legal))]))
        return fast.core.deck, fast.core.actions

    assert episode(4) == episode(4)
    assert episode(4) != episode(5)


def test_dealers_and_cards_are_spread_evenly() -> None:
    fast = FastDeal(Rules())
    rng = random.Random(2)
    dealers = [0, 0, 0]
    first_card = [0] * 32
    for _ in range(6000):
        fast.reset(rng)
        dealers[fast.core.dealer] += 1
        first_card[fast.core.deck[0]] += 1
    assert min(dealers) > 1800
    assert min(first_card) > 120 and max(first_card) < 260  # 187.5 expected


@given(st.integers(0, 2**64 - 1), st.lists(st.integers(-5, enc.ACTION_COUNT + 5), max_size=60))
@settings(max_examples=200, deadline=None)
def test_any_sequence_of_actions_leaves_a_state_the_engine_agrees_with(seed: int, indices: list[int]) -> None:
    fast = FastDeal(Rules())
    fast.core.reset(seed)
    for index in indices:
        if not 0 <= index < enc.ACTION_COUNT:
            with pytest.raises(ValueError, match="an action is an integer 0 to 540"):
                fast.core.step(index)
            continue
        code = fast.core.step(index)
        if code == VOID:
            fast.redeal()
    deal = fast.deal()
    encoder = DealEncoder()
    replay = Deal(deal.deck, dealer=deal.dealer)
    encoder.start(replay)
    for event in deal.events:
        encoder.push(replay, replay.apply(event.action))
    check_state(fast, replay, encoder, views=True)


# --- the door: bad arguments raise, never crash ----------------------------------------
def test_bad_actions_raise_clear_errors() -> None:
    fast = FastDeal(Rules())
    with pytest.raises(RuntimeError, match="reset"):
        fast.core.step(32)
    with pytest.raises(RuntimeError, match="reset"):
        _ = fast.core.deck
    assert fast.core.to_move == -1 and not fast.core.is_legal(32)
    fast.core.reset(1)
    for bad in (None, -1, 541, 2**100, True, 1.5, "3", np.float32(2)):
        with pytest.raises(ValueError, match="an action is an integer 0 to 540"):
            fast.core.step(bad)
        with pytest.raises(ValueError, match="an action is an integer 0 to 540"):
            fast.core.is_legal(bad)
    assert fast.core.action_count == 0
    assert fast.core.step(np.int64(32)) >= 0  # NumPy integers are actions
    with pytest.raises(RuntimeError, match="not void"):
        fast.core.redeal()


@pytest.mark.parametrize("seed", [-1, 2**64, "x", 1.0, True])
def test_bad_seeds_raise(seed: object) -> None:
    with pytest.raises((TypeError, ValueError), match="seed"):
        FastDeal(Rules()).core.reset(seed)  # type: ignore[arg-type]


def test_bad_arrays_raise() -> None:
    full = np.zeros((3, enc.FULL_OBSERVATION_SIZE), np.float32)
    mask = np.zeros(enc.ACTION_COUNT, np.int8)
    _fastdeal.Core(full, mask)
    cases = [
        (np.zeros((3, enc.FULL_OBSERVATION_SIZE), np.float64), mask, "full"),
        (np.zeros((3, enc.OBSERVATION_SIZE), np.float32), mask, "full"),
        (full, np.zeros(enc.ACTION_COUNT, np.bool_), "mask"),
        (full, np.zeros(enc.ACTION_COUNT - 1, np.int8), "mask"),
        (np.zeros((3, 2 * enc.FULL_OBSERVATION_SIZE), np.float32)[:, ::2], mask, "full"),
        (b"\0" * 4 * 3 * enc.FULL_OBSERVATION_SIZE, mask, "full"),
        ([0.0] * 3 * enc.FULL_OBSERVATION_SIZE, mask, "full"),
    ]
    readonly = full.copy()
    readonly.flags.writeable = False
    cases.append((readonly, mask, "full"))
    for f, m, name in cases:
        with pytest.raises((TypeError, ValueError), match=name):
            _fastdeal.Core(f, m)
    with pytest.raises(ValueError, match="out of range"):
        _fastdeal.Core(full, mask, target=0)
    with pytest.raises(TypeError):
        _fastdeal.Core(full, mask, 1)  # type: ignore[misc]


def test_the_layout_is_checked() -> None:
    good = layout()
    _fastdeal.configure(good)  # the same layout again is fine
    with pytest.raises(TypeError, match="dict"):
        _fastdeal.configure([])  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="hand"):
        _fastdeal.configure({k: v for k, v in good.items() if k != "hand"})
    for key, value, error in [
        ("trick", enc.OBSERVATION_SIZE - 10, "trick"),
        ("full_discard", enc.FULL_OBSERVATION_SIZE, "full_discard"),
        ("action_count", 100, "discard pairs"),
        ("whist", 20, "action index"),
        ("phase_over", 9, "phase_over"),
        ("score_scale", 0.0, "score_scale"),
    ]:
        with pytest.raises(ValueError, match=error):
            _fastdeal.configure({**good, key: value})
    with pytest.raises(TypeError, match="int"):
        _fastdeal.configure({**good, "hand": 0.5})
    with pytest.raises(RuntimeError, match="already set"):
        _fastdeal.configure({**good, "target": good["target"] - 1})  # type: ignore[operator]


def test_a_core_holds_its_arrays_while_it_lives_and_lets_go_after() -> None:
    full = np.zeros((3, enc.FULL_OBSERVATION_SIZE), np.float32)
    mask = np.zeros(enc.ACTION_COUNT, np.int8)
    before = sys.getrefcount(full), sys.getrefcount(mask)
    cores = [_fastdeal.Core(full, mask) for _ in range(100)]
    assert (sys.getrefcount(full), sys.getrefcount(mask)) == (before[0] + 100, before[1] + 100)
    with pytest.raises(ValueError):
        mask.resize(10)  # the cores write into it: it cannot move
    del cores
    assert (sys.getrefcount(full), sys.getrefcount(mask)) == before
    for _ in range(100):  # failed constructions release what they took
        with pytest.raises(ValueError):
            _fastdeal.Core(full, np.zeros(3, np.int8))
    assert sys.getrefcount(full) == before[0]
    # nothing holds the mask any more (mask.resize would say so too, but under a tracer
    # such as coverage's its stricter reference check counts the tracer's own references)
    assert sys.getrefcount(mask) == before[1]


@pytest.mark.parametrize("variant", range(0, len(VARIANTS), 2), ids=VARIANT_IDS[::2])
def test_r8_game_episodes_in_the_core_follow_the_engines_match(variant: int) -> None:
    """Whole games (R8, to a target of 61): every state against a Match dealt the decks
    the core dealt and driven by the same actions: observations with the totals, masks,
    scores, R8.2 resets, the next dealer (R2.2-R2.3) and the end (R8.3)."""
    rules = replace(VARIANTS[variant][0], target=61)
    game = EpisodeGame(episode="game", rules=rules)
    rng = random.Random(variant)
    deals = 0
    for _ in range(6):
        game.reset(rng)
        match = Match(first_dealer=game.core.dealer, rules=rules)
        while True:
            if match.needs_deck:
                match.deal_next(game.core.deck)
            deal = match.deals[-1]
            assert (game.mask == engine_mask(deal)).all()
            for seat in range(3):
                assert (game.full[seat] == enc.observe_full(deal, seat, totals=match.totals)).all()
            assert game.totals == match.totals and game.to_move == match.to_move
            if game.done:
                break
            legal = deal.legal_actions()
            action = legal[rng.randrange(len(legal))]
            scores = game.act(enc.action_index(action))
            match.apply(action)
            assert scores == deal.scores
        assert match.is_over and game.match is not None
        assert game.match.totals == match.totals and game.match.winners == match.winners
        assert [d.events for d in game.match.deals] == [d.events for d in match.deals]
        deals += match.completed_deals
    assert deals >= 9


def test_bad_calls_between_deals_raise() -> None:
    fast = FastDeal(Rules())
    with pytest.raises(RuntimeError, match="reset"):
        fast.core.start(0, False, (0, 0, 0))
    with pytest.raises(RuntimeError, match="reset"):
        fast.core.set_totals(1, 2, 3)
    fast.core.reset(3)
    with pytest.raises(RuntimeError, match="not over"):
        fast.core.start(0, False, (0, 0, 0))
    while fast.core.to_move >= 0:
        code = fast.core.step(int(np.flatnonzero(fast.mask)[0]))
        if code == VOID:
            fast.redeal()
    for args, error in [
        ((3, False, (0, 0, 0)), ValueError),
        ((-1, False, (0, 0, 0)), ValueError),
        ((0, False, (0, 0)), TypeError),
        ((0, False, [0, 0, 0]), TypeError),
        ((0, False, (0, 0, 10**9)), ValueError),
        ((0, False, (0, 0, "1")), TypeError),
        (("0", False, (0, 0, 0)), TypeError),
    ]:
        with pytest.raises(error):
            fast.core.start(*args)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        fast.core.set_totals(1, 2)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="totals"):
        fast.core.set_totals(1, 2, -(10**9))
    scores = fast.core.scores
    assert fast.core.start(2, True, (5, -3, 0)) >= 0 and fast.core.dealer == 2 and fast.core.first_deal
    assert scores is not None and fast.core.scores is None and fast.core.action_count == 0
