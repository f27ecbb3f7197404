"""Property tests over random games (hypothesis).

Every game is driven through the engine *and* through :class:`RefDeal`, a small,
deliberately naive reference model of RULES.md (``reference_model.py``, written from the
rules text; it shares no logic with the engine: it works on card codes and Python sets).
At every step the engine must agree with the model on whose turn it is, the hands,
the legal actions (checked against a brute force over every action id, both with
``is_legal`` and by trying each action on a clone), and in the end on the result,
the scores, the totals, the next dealer and the winners.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import play_deal_out, play_out, round_trip
from paston import record
from paston.actions import Action
from paston.deal import Deal, Phase
from paston.errors import IllegalActionError
from paston.match import Match
from paston.rules import Rules
from property_helpers import (
    ALL_ACTIONS,
    CHEAP,
    FAST,
    FULL_MASK,
    SLOW,
    check_views,
    codes,
    dealers,
    rules_st,
    run_game,
    seeds,
    snapshot,
)
from reference_model import RefDeal, action_key

# --------------------------------------------------------------------------------------
# The properties.


@CHEAP
@given(seed=seeds, first_dealer=dealers, rules=rules_st)
def test_engine_agrees_with_reference_model(seed: int, first_dealer: int, rules: Rules) -> None:
    """Whole games: every state, result, total, dealer and winner as RULES.md says."""
    match, game = run_game(seed, first_dealer, rules, max_deals=6)
    assert list(match.totals) == game.totals
    assert list(match.winners) == game.winners


@CHEAP
@given(seed=seeds, first_dealer=dealers, rules=rules_st)
def test_cards_are_conserved(seed: int, first_dealer: int, rules: Rules) -> None:
    """R0.2/R1.3/R4.1: hands + untaken prikup + discard + played = the 32 cards, disjoint."""

    def check(match: Match, deal: Deal, ref: RefDeal) -> None:
        parts = [deal.hand_mask(0), deal.hand_mask(1), deal.hand_mask(2), deal.discard.mask, deal.played_mask]
        if deal.declarer is None:
            parts.append(deal.prikup)
        else:
            assert deal.prikup & ~(deal.hand_mask(deal.declarer) | deal.discard.mask | deal.played_mask) == 0
        seen = 0
        for part in parts:
            assert seen & part == 0, "a card is in two places"
            seen |= part
        assert seen == FULL_MASK, "a card went missing"
        assert sum(p.bit_count() for p in parts) == 32
        # hand sizes: 10 each, declarer 12 between taking the prikup and discarding
        sizes = [deal.hand_mask(s).bit_count() for s in range(3)]
        n_played = [0, 0, 0]
        for t in deal.completed_tricks:
            for s, _c in t.plays:
                n_played[s] += 1
        for s, _c in deal.current_trick:
            n_played[s] += 1
        for s in range(3):
            extra = 2 if s == deal.declarer and deal.phase is Phase.DISCARD else 0
            assert sizes[s] + n_played[s] == 10 + extra

    run_game(seed, first_dealer, rules, max_deals=3, before=check, after=check)


@SLOW
@given(seed=seeds, first_dealer=dealers, rules=rules_st)
def test_legal_actions_equal_brute_force(seed: int, first_dealer: int, rules: Rules) -> None:
    """legal_actions() == {a : is_legal(a)} == {a : apply on a clone succeeds} == the model's."""

    def check(match: Match, deal: Deal, ref: RefDeal) -> None:
        legal = deal.legal_actions()
        assert len(set(legal)) == len(legal), "duplicates in legal_actions()"
        by_is_legal = {a for a in ALL_ACTIONS if deal.is_legal(a)}
        assert set(legal) == by_is_legal
        # an accepted action is tried on a copy; a refused one on the deal itself, which a
        # refusal leaves as it was (test_illegal_actions_raise_and_change_nothing)
        by_trying = set()
        count = deal.event_count
        for a in ALL_ACTIONS:
            try:
                (deal.clone() if a in by_is_legal else deal).apply(a)
            except IllegalActionError:
                continue
            by_trying.add(a)
        assert by_trying == by_is_legal
        assert deal.event_count == count
        assert {action_key(a) for a in legal} == ref.legal()
        # the seat's own view offers exactly these; the others and the public none
        for s in range(3):
            v = deal.view(s)
            assert set(v.legal_actions) == (set(legal) if s == deal.to_move else set())
        assert deal.public_view().legal_actions == ()
        if deal.phase is Phase.PLAY:
            assert codes(deal.legal_play_mask()) == {k[1] for k in ref.legal()}

    def over(match: Match, deal: Deal, ref: RefDeal) -> None:
        assert deal.legal_actions() == ()
        assert not any(deal.is_legal(a) for a in ALL_ACTIONS)

    run_game(seed, first_dealer, rules, max_deals=2, before=check, on_deal_end=over)


RULE_PREFIX = re.compile(r"^R\d+(\.\d+)?: ")


def check_illegal(deal: Deal, action: Action, seat: int | None, allowed_rules: set[str]) -> None:
    before = snapshot(deal)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(action, seat)
    err = info.value
    assert RULE_PREFIX.match(str(err)), str(err)
    assert str(err).startswith(err.rule + ": ")
    assert err.rule in allowed_rules, (str(err), allowed_rules)
    assert snapshot(deal) == before, f"state changed by the illegal {action}"
    assert not deal.is_legal(action) or seat is not None


@SLOW
@given(seed=seeds, first_dealer=dealers, rules=rules_st)
def test_illegal_actions_raise_and_change_nothing(seed: int, first_dealer: int, rules: Rules) -> None:
    rng = random.Random(seed)

    def check(match: Match, deal: Deal, ref: RefDeal) -> None:
        legal = set(deal.legal_actions())
        illegal = [a for a in ALL_ACTIONS if a not in legal]
        small = [a for a in illegal if a.id < 64]
        sample = rng.sample(small, min(10, len(small))) + rng.sample(illegal, 4)
        for i, a in enumerate(sample):
            check_illegal(deal, a, None if i % 2 else deal.to_move, ref.expected_rules())
        # a legal action by the wrong seat
        wrong = rng.choice([s for s in range(3) if s != deal.to_move])
        check_illegal(deal, rng.choice(sorted(legal)), wrong, ref.expected_rules())
        # the match refuses the same and keeps its totals
        totals = match.totals
        n_deals = len(match.deals)
        with pytest.raises(IllegalActionError):
            match.apply(illegal[0])
        assert (match.totals, len(match.deals)) == (totals, n_deals)

    def over(match: Match, deal: Deal, ref: RefDeal) -> None:
        for a in (ALL_ACTIONS[0], Action.parse("pass"), Action.parse("whist")):
            check_illegal(deal, a, None, ref.expected_rules())

    run_game(seed, first_dealer, rules, max_deals=2, before=check, on_deal_end=over)


@FAST
@given(seed=seeds, first_dealer=dealers, rules=rules_st)
def test_views_reveal_nothing_hidden(seed: int, first_dealer: int, rules: Rules) -> None:
    run_game(seed, first_dealer, rules, max_deals=3, before=check_views, after=check_views)


@CHEAP
@given(seed=seeds, first_dealer=dealers, rules=rules_st)
def test_played_deals_have_ten_tricks(seed: int, first_dealer: int, rules: Rules) -> None:
    """R5.2/R6.1/R6.3: 10 tricks; declarer + defenders = 10; the passer takes none."""
    seen_outcomes: set[str] = set()

    def end(match: Match, deal: Deal, ref: RefDeal) -> None:
        r = deal.result
        if deal.redeal is not None:
            assert r is None and deal.completed_tricks == () and deal.tricks == (0, 0, 0)
            return
        assert r is not None
        seen_outcomes.add(r.outcome)
        if r.outcome != "played":
            assert deal.completed_tricks == () and r.tricks == (0, 0, 0) and deal.tricks == (0, 0, 0)
            assert r.defenders == ()
            return
        tricks = deal.completed_tricks
        assert len(tricks) == 10
        assert sum(r.tricks) == 10 == sum(deal.tricks)
        d = r.declarer
        active = {d, *r.defenders}
        assert len(r.defenders) in (1, 2) and d not in r.defenders
        assert r.tricks[d] + sum(r.tricks[s] for s in r.defenders) == 10
        for s in range(3):
            if s not in active:
                assert r.tricks[s] == 0, "the passer takes no tricks (R5.2)"
        leader = d  # R6.1
        all_cards: set[str] = set()
        counts = [0, 0, 0]
        for t in tricks:
            assert t.leader == leader
            assert len(t.plays) == len(active)
            assert {s for s, _c in t.plays} == active
            seat = leader
            for s, _c in t.plays:  # clockwise among the active seats
                assert s == seat
                seat = (seat + 1) % 3
                while seat not in active:
                    seat = (seat + 1) % 3
            assert t.winner == ref.trick_winner([(s, str(c)) for s, c in t.plays])
            counts[t.winner] += 1
            all_cards |= {str(c) for _s, c in t.plays}
            leader = t.winner
        assert len(all_cards) == 10 * len(active)
        assert tuple(counts) == r.tricks
        for s in range(3):
            if s not in active:
                # the passer's hand stays whole and face down
                assert codes(deal.hand(s)) == set(ref.dealt[s])
            else:
                assert len(deal.hand(s)) == 0

    run_game(seed, first_dealer, rules, max_deals=4, on_deal_end=end)


@CHEAP
@given(seed=seeds, first_dealer=dealers, rules=rules_st, data=st.data())
def test_records_round_trip(seed: int, first_dealer: int, rules: Rules, data: st.DataObject) -> None:
    """dumps(loads(dumps(m))) == dumps(m), also for games stopped at any point."""
    stop = data.draw(st.one_of(st.none(), st.integers(0, 120)), label="stop after actions")
    match, game = run_game(seed, first_dealer, rules, max_deals=100 if stop is None else 10, max_actions=stop)
    text = record.dumps(match)
    again = round_trip(match)
    assert again.totals == match.totals
    assert again.winners == match.winners
    assert list(again.totals) == game.totals
    assert list(again.winners) == game.winners
    assert len(again.deals) == len(match.deals)
    for a, b in zip(again.deals, match.deals, strict=True):
        assert a.deck == b.deck and a.dealer == b.dealer and a.events == b.events
        assert a.result == b.result and a.redeal == b.redeal and a.phase == b.phase
    obj = record.to_record(match)
    if not match.is_over:
        assert obj["winners"] == []
    last = obj["deals"][-1]
    if not match.deals[-1].is_over:
        assert "result" not in last and "totals" not in last
    # pretty-printed records read the same
    assert record.dumps(record.loads(record.dumps(match, indent=2))) == text
    # the replayed game continues exactly like the original
    if match.deal is not None:
        assert again.deal is not None
        assert again.legal_actions() == match.legal_actions()
        assert again.to_move == match.to_move


@CHEAP
@given(seed=seeds, first_dealer=dealers, rules=rules_st, data=st.data())
def test_clone_is_independent(seed: int, first_dealer: int, rules: Rules, data: st.DataObject) -> None:
    stop = data.draw(st.integers(0, 60), label="clone after actions")
    match, _game = run_game(seed, first_dealer, rules, max_deals=1, max_actions=stop)
    deal = match.deals[-1]
    original = snapshot(deal)
    clone = deal.clone()
    assert snapshot(clone) == original
    rng = random.Random(seed)
    play_deal_out(clone, rng)  # play the clone out
    assert snapshot(deal) == original, "playing the clone changed the original"
    if not deal.is_over:
        frozen = snapshot(clone)
        clone2 = deal.clone()
        play_deal_out(deal, rng)  # play the original out
        assert snapshot(clone) == frozen, "playing the original changed a clone"
        assert snapshot(clone2) == original, "playing the original changed a clone"


@CHEAP
@given(seed=seeds, first_dealer=dealers, rules=rules_st, data=st.data())
def test_match_clone_is_independent(seed: int, first_dealer: int, rules: Rules, data: st.DataObject) -> None:
    stop = data.draw(st.integers(0, 80), label="clone after actions")
    match, _game = run_game(seed, first_dealer, rules, max_deals=2, max_actions=stop)
    text = record.dumps(match)
    copy = match.clone()
    play_out(copy, random.Random(seed), max_actions=60)
    assert record.dumps(match) == text, "playing a Match clone changed the original"


def test_random_games_cover_every_outcome() -> None:
    """The properties above are only as good as the games they see: make sure random
    games reach every outcome, both defence shapes, best spades and an all-pass auction."""
    outcomes: set[str] = set()
    shapes: set[int] = set()
    contracts: set[str] = set()
    all_pass = False

    def end(match: Match, deal: Deal, ref: RefDeal) -> None:
        nonlocal all_pass
        if deal.result is None:
            return
        outcomes.add(deal.result.outcome)
        if deal.result.outcome == "played":
            shapes.add(len(deal.result.defenders))
        if deal.result.contract is not None:
            contracts.add(deal.result.contract.name_in_record)
        if ref.bid is None:
            all_pass = True

    for seed in range(40):
        run_game(seed, seed % 3, Rules(target=121), max_deals=5, on_deal_end=end)
    assert outcomes == {"played", "uncontested", "surrender"}
    assert shapes == {1, 2}
    assert "best-spades" in contracts
    assert all_pass
