"""The account of a finished deal (paston.summary) over many random deals: tied to the
deal's DealResult and the match's totals, and to R5.2, R6.3, R7 and R8.2 as written in
RULES.md (the expected values below are written out from the rule text, not taken from
the engine)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import ALL_CODES, hands_of, make_deck, play_out

from paston.contracts import Contract
from paston.deal import Deal
from paston.match import Match
from paston.result import Outcome, Redeal
from paston.rules import Rules
from paston.summary import DealSummary, Role, deal_summary, last_summary, summarize

MANY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# R7: multiplier per contract.
M = {"spades": 1, "clubs": 2, "diamonds": 3, "hearts": 4, "best-spades": 4}

RULES = st.builds(
    Rules,
    lone_defender=st.sampled_from(["graded", "flat"]),
    surrender_bonus=st.sampled_from([2, 0]),
    all_pass_declarer=st.sampled_from(["spade-jack", "first-bidder"]),
    target=st.sampled_from([121, 40, 20]),
)


def summaries(seed: int, rules: Rules, deals: int = 8) -> tuple[Match, list[DealSummary]]:
    """A random game of up to ``deals`` scored deals and the summary of each finished deal."""
    rng = random.Random(seed)
    match = Match(first_dealer=rng.randrange(3), rules=rules, rng=random.Random(seed + 1))
    play_out(match, rng, max_deals=deals)
    return match, [deal_summary(match, i) for i, d in enumerate(match.deals) if d.is_over]


def expected_defender(t: int, lone: bool, flat: bool) -> int:
    """R7.2 / R7.3 before the multiplier."""
    if lone:
        table = [-10, -9, -9, -9, 0] if flat else [-10, -9, -8, -7, 0]
        return table[t] if t <= 4 else 10 * (t - 4)
    return [-10, -9, 0][t] if t <= 2 else 10 * (t - 2)


@MANY
@given(st.integers(0, 10**6), RULES)
def test_r7_summary_scores_are_the_deal_results_and_the_rule_lines(seed: int, rules: Rules) -> None:
    match, done = summaries(seed, rules)
    for s in done:
        result = match.deals[s.deal].result
        if result is None:
            assert s.redeal is not None and s.scores == (0, 0, 0)
            continue
        assert s.scores == result.scores and s.outcome is result.outcome
        assert s.declarer == result.declarer and s.contract == result.contract
        for line in s.seats:
            if result.outcome is Outcome.SURRENDER:  # R7.7
                want = -10 if line.seat == s.declarer else rules.surrender_bonus
                assert (line.rule, line.score) == ("R7.7", want)
                continue
            assert result.contract is not None
            m = M[result.contract.name_in_record]
            best = result.contract is Contract.BEST_SPADES
            if result.outcome is Outcome.UNCONTESTED:  # R7.6
                want = (10 if best else 10 * m) if line.seat == s.declarer else 0
                assert (line.rule, line.score) == ("R7.6", want)
            elif line.role is Role.DECLARER:  # R7.1, R7.5
                made = result.tricks[line.seat] >= 6
                want = (10 if best else 10 * m) if made else -10 * m
                assert (line.rule, line.score) == ("R7.5" if best else "R7.1", want)
            elif line.role is Role.PASSED:  # R7.4
                assert (line.rule, line.score) == ("R7.4", 0)
            else:
                lone = line.role is Role.LONE_DEFENDER
                want = expected_defender(result.tricks[line.seat], lone, rules.lone_defender == "flat") * m
                assert (line.rule, line.score) == ("R7.3" if lone else "R7.2", want)
            assert line.text


@MANY
@given(st.integers(0, 10**6), RULES)
def test_r5_2_summary_tricks_against_the_whist_quota_and_r6_3_six_for_the_declarer(
    seed: int, rules: Rules
) -> None:
    match, done = summaries(seed, rules)
    for s in done:
        result = match.deals[s.deal].result
        if result is None or result.outcome is not Outcome.PLAYED:
            assert all(line.tricks is None and line.needed is None for line in s.seats)
            assert s.short == 0
            assert s.made is (None if result is None or result.outcome is Outcome.SURRENDER else True)
            continue
        defenders = result.defenders
        for line in s.seats:
            if line.seat == s.declarer:
                assert line.needed == 6 and line.tricks == result.tricks[line.seat]
            elif line.seat in defenders:
                assert line.needed == (4 if len(defenders) == 1 else 2)  # R5.2
                assert line.role is (Role.LONE_DEFENDER if len(defenders) == 1 else Role.DEFENDER)
                assert line.tricks == result.tricks[line.seat]
            else:  # R5.2: the passer takes no part
                assert line.role is Role.PASSED and line.tricks is None and line.needed is None
        taken = result.tricks[result.declarer]
        assert s.made is (taken >= 6)
        assert s.short == max(0, 6 - taken)


@MANY
@given(st.integers(0, 10**6), RULES)
def test_r8_2_summary_totals_follow_the_match_with_its_resets(seed: int, rules: Rules) -> None:
    match, done = summaries(seed, rules, deals=12)
    running = (0, 0, 0)
    for s in done:
        assert s.totals_before == running
        after = match.deal_totals[s.deal]
        if after is None:  # a redeal changes nothing (R1.6)
            assert s.totals == running
            continue
        assert s.totals == after
        for line in s.seats:
            hit = running[line.seat] + line.score == -rules.target
            assert line.reset is hit and (
                line.total == 0 if hit else line.total == running[line.seat] + line.score
            )
        assert s.resets == tuple(line.seat for line in s.seats if line.reset)
        running = after


def test_r8_2_a_reset_is_shown_in_the_summary() -> None:
    rules = Rules(target=20)
    for seed in range(400):
        _, done = summaries(seed, rules, deals=30)
        reset = [s for s in done if s.resets]
        if reset:
            s = reset[0]
            seat = s.resets[0]
            assert s.totals_before[seat] + s.seats[seat].score == -20 and s.totals[seat] == 0
            assert s.to_json()["resets"] == list(s.resets)
            return
    pytest.fail("no reset of R8.2 in 400 games to 20")


@MANY
@given(st.integers(0, 10**6))
def test_r1_3_summary_shows_the_hands_and_prikup_as_dealt(seed: int) -> None:
    match, done = summaries(seed, Rules())
    for s in done:
        deal = match.deals[s.deal]
        codes = [ALL_CODES[c] for c in deal.deck]
        dealt = hands_of(codes, s.dealer)  # R1.3, written out in the helpers
        for line in s.seats:
            assert sorted(str(c) for c in line.hand) == sorted(dealt[line.seat])
        assert sorted(str(c) for c in s.prikup) == sorted(codes[6:8])
        shown = s.to_json()
        every = [c for line in shown["seats"] for c in line["hand"]] + shown["prikup"]
        assert sorted(every) == sorted(ALL_CODES)
        if deal.result is not None:  # R4.1: the discard is shown once the deal is over
            assert len(s.discard) == 2 and s.discard.mask & ~(deal.dealt[s.declarer] | deal.prikup) == 0


def test_r6_3_a_failed_contract_says_by_how_many_tricks() -> None:
    seen: set[int] = set()
    for seed in range(60):
        _, done = summaries(seed, Rules())
        for s in done:
            if s.made is False:
                assert s.short == 6 - s.seats[s.declarer].tricks  # type: ignore[index, operator]
                assert s.seats[s.declarer].text.startswith(f"declarer, {6 - s.short} of the 6 tricks")
                seen.add(s.short)
    assert seen and min(seen) >= 1


def test_r1_4_a_redeal_summary_scores_nothing_and_shows_the_reason() -> None:
    # seat 1 holds 7S–QS without KS or AS: R1.4
    deck = make_deck(dealer=0, hands={1: "7S 8S 9S TS JS QS 7C 8C 9C TC"})
    match = Match(first_dealer=0)
    match.deal_next(deck)
    s = deal_summary(match, 0)
    assert s.redeal is Redeal.SPADE_SEQUENCE and s.outcome is None and s.made is None
    assert s.scores == (0, 0, 0) and s.totals == (0, 0, 0) and not s.all_passed
    assert s.to_json()["redeal_rule"] == "R1.4"
    assert last_summary(match) is None  # nothing scored yet
    assert last_summary(match, scored=False) == s


def test_r5_3_an_uncontested_deal_after_an_all_pass_auction() -> None:
    for seed in range(300):
        _, done = summaries(seed, Rules(), deals=6)
        for s in done:
            if s.outcome is Outcome.UNCONTESTED and s.all_passed:
                assert s.made is True and s.bid is None
                assert [line.role for line in s.seats].count(Role.OPPONENT) == 2
                assert s.to_json()["outcome_rule"] == "R5.3"
                return
    pytest.fail("no uncontested deal after an all-pass auction in 300 games")


def test_a_deal_in_progress_has_no_summary() -> None:
    deal = Deal(make_deck(dealer=0), dealer=0)
    with pytest.raises(ValueError, match="still secret"):
        summarize(deal, (0, 0, 0))
    match = Match(first_dealer=0, rng=random.Random(2))
    assert last_summary(match) is None
    with pytest.raises(ValueError, match="not a deal 5"):
        deal_summary(match, 5)
