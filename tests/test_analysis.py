"""The analysis of a finished deal (paston.eval.analysis, over paston.solver.card_costs):
costs against perfect play in tricks and in R7 points, the computer player's choices
from the seat's view only, decisions with option scores, totals and mistakes."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import weighted_choice

from paston.actions import Action, Kind
from paston.bots.explain import explain
from paston.deal import Deal, Phase
from paston.eval.analysis import AnalysisError, action_seed, action_text, analyze_deal, bot_card
from paston.scoring import played_scores
from paston.solver import Position, Solver
from paston.solver.card_costs import analyze_deal as analyze_play

SOLVER = Solver()
Chooser = Callable[[Deal], Action]


def play_deal(seed: int, card: Chooser | None = None, *, bid_prob: float = 0.7) -> Deal:
    """A deal to its end: the bidding, discard, trump and whist at random (weighted), the
    cards by ``card`` (random when None)."""
    rng = random.Random(seed)
    deal = Deal.random(rng, dealer=seed % 3)
    while not deal.is_over:
        if deal.phase is Phase.PLAY and card is not None:
            deal.apply(card(deal))
        else:
            deal.apply(weighted_choice(rng, deal, bid_prob=bid_prob, whist_prob=0.7))
    return deal


def maxn_best(deal: Deal) -> Action:
    """A card that keeps the player's own max^n score (perfect play in points)."""
    seat = deal.to_move
    assert seat is not None
    maxn = SOLVER.maxn(Position.from_deal(deal), deal.rules)
    return Action.play(max(maxn.card_scores, key=lambda c: maxn.card_scores[c][seat]))


def tricks_best(deal: Deal) -> Action:
    """A double-dummy best card (perfect play in tricks, the declarer against the defenders)."""
    pos = Position.from_deal(deal)
    return Action.play(SOLVER.solve(pos).best_cards(deal.to_move == pos.declarer)[0])


def played(seeds: range) -> list[Deal]:
    deals = [play_deal(s) for s in seeds]
    return [d for d in deals if any(e.action.kind is Kind.PLAY for e in d.events)]


@pytest.mark.parametrize("seed", range(6))
def test_r7_perfect_play_in_points_costs_no_point(seed: int) -> None:
    deal = play_deal(seed, maxn_best)
    a = analyze_deal(deal, 0, level=1, solver=SOLVER)
    if deal.result is not None and deal.result.outcome == "played":
        assert len(a["cards"]) == 10 * len({c["seat"] for c in a["cards"]})
    assert [c["cost_points"] for c in a["cards"]] == [0] * len(a["cards"])
    for c in a["cards"]:
        assert c["card"] in c["best"]


@pytest.mark.parametrize("seed", range(6))
def test_r6_perfect_play_in_tricks_costs_no_trick(seed: int) -> None:
    deal = play_deal(seed, tricks_best)
    a = analyze_deal(deal, 0, level=1, solver=SOLVER)
    assert [c["cost_tricks"] for c in a["cards"]] == [0] * len(a["cards"])


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_costs_are_never_negative_and_the_totals_add_up(seed: int) -> None:
    deal = play_deal(seed)
    a = analyze_deal(deal, 3, level=1, solver=SOLVER)
    assert json.loads(json.dumps(a)) == a  # JSON as it is
    assert a["deal"] == 3 and a["level"] == 1
    lost = [0.0, 0.0, 0.0]
    for c in a["cards"]:
        assert c["cost_tricks"] >= 0 and c["cost_points"] >= 0
        assert (c["cost_points"] == 0) == (c["card"] in c["best"])
        lost[c["seat"]] += c["cost_points"]
    for d in a["decisions"]:
        scores = {o["action"]: o["score"] for o in d["options"]}
        assert d["options"] and d["bot"] in scores
        # the bot's choice comes first: its best option, but a bid must beat passing by
        # more than the bot's margin (decision H2), so pass may come first with less
        assert d["options"][0]["action"] == d["bot"]
        if d["chosen"] in scores:
            lost[d["seat"]] += round(max(scores.values()) - scores[d["chosen"]], 2)
    assert a["totals"] == pytest.approx(lost, abs=0.011)
    costs = [m["cost_points"] for m in a["mistakes"]]
    assert costs == sorted(costs, reverse=True) and all(x > 0 for x in costs)
    assert sum(costs) == pytest.approx(sum(a["totals"]), abs=0.011)
    indexes = {c["index"] for c in a["cards"]} | {d["index"] for d in a["decisions"]}
    assert {m["index"] for m in a["mistakes"]} <= indexes


@pytest.mark.parametrize("seed", range(4))
def test_r7_points_are_the_scores_of_r7(seed: int) -> None:
    """The max^n score vector after the last card is the deal's R7 scores; a card's cost
    in points is the player's best own max^n score less its own score after the card."""
    for deal in played(range(seed * 5, seed * 5 + 5))[:1]:
        a = analyze_play(deal, 0, SOLVER, scores=True)
        cards = [c for t in a.tricks for c in t]
        assert deal.result is not None and cards[-1].scores == deal.result.scores
        assert deal.contract is not None and deal.declarer is not None
        assert cards[-1].scores == played_scores(
            deal.contract,
            declarer=deal.declarer,
            defenders=deal.defenders,
            tricks=deal.result.tricks,
            rules=deal.rules,
        )
        for c in cards:
            state = deal.state_at(c.index)
            maxn = SOLVER.maxn(Position.from_deal(state), deal.rules)
            own = {card: v[c.seat] for card, v in maxn.card_scores.items()}
            assert c.scores is not None and c.scores[c.seat] == own[c.card]
            assert c.cost_points == max(own.values()) - own[c.card]
        assert sum(a.cost_points) == sum(c.cost_points for c in cards)


def _swapped(deal: Deal, k: int, seat: int, rng: random.Random) -> Deal | None:
    """The state before action ``k`` of a deal whose two other hands have swapped two
    unplayed cards of one suit (the seat cannot tell the two apart), or None if no such
    swap keeps the actions before ``k`` legal."""
    state = deal.state_at(k)
    others = [s for s in range(3) if s != seat]
    a, b = state.hand(others[0]), state.hand(others[1])
    pairs = [(x, y) for x in a for y in b if x.suit == y.suit and "S" not in (str(x)[1], str(y)[1])]
    rng.shuffle(pairs)
    for x, y in pairs[:5]:
        deck = [int(c) for c in deal.deck]
        i, j = deck.index(x.index), deck.index(y.index)
        deck[i], deck[j] = deck[j], deck[i]
        other = Deal(deck, dealer=deal.dealer, rules=deal.rules, first_deal=deal.first_deal)
        try:
            for e in deal.events[:k]:
                other.apply(e.action, e.seat)
        except Exception:
            continue
        if other.hand_mask(seat) == state.hand_mask(seat) and other.hand_mask(others[0]) != state.hand_mask(
            others[0]
        ):
            return other
    return None


@pytest.mark.parametrize("seed", range(3))
def test_the_bot_column_comes_from_the_seat_view_alone(seed: int) -> None:
    """Swapping two hidden cards between the other hands changes the deal but not the
    seat's view, and so neither pimc's card nor its decision."""
    deal = played(range(seed * 7, seed * 7 + 7))[0]
    a = analyze_deal(deal, 0, level=1, seed=5, solver=SOLVER)
    rng = random.Random(seed)
    checked = 0
    rows = [(c["index"], c["seat"], c["bot"]) for c in a["cards"]] + [
        (d["index"], d["seat"], d["bot"]) for d in a["decisions"]
    ]
    for index, seat, bot in rows:
        other = _swapped(deal, index, seat, rng)
        if other is None:
            continue
        view = other.view(seat)
        assert view == deal.state_at(index).view(seat)
        if other.phase is Phase.PLAY:
            got = bot_card(view, index, level=1, seed=5, solver=SOLVER)
        else:
            got = explain(view, level=1, seed=action_seed(5, index), solver=SOLVER).chosen
        assert action_text(got) == bot
        checked += 1
    assert checked >= 3


def test_only_a_finished_deal_is_analysed() -> None:
    deal = Deal.random(random.Random(1), dealer=0)
    with pytest.raises(AnalysisError, match="not finished"):
        analyze_deal(deal, 0, level=1, solver=SOLVER)
    finished = play_deal(1)
    with pytest.raises(AnalysisError, match="level"):
        analyze_deal(finished, 0, level=9, solver=SOLVER)


def test_the_same_deal_level_and_seed_give_the_same_analysis() -> None:
    deal = played(range(10))[0]
    first = analyze_deal(deal, 2, level=1, seed=7, solver=SOLVER)
    assert analyze_deal(deal, 2, level=1, seed=7, solver=Solver()) == first
