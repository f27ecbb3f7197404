"""The αμ declarer (paston.bots.alphamu): the Pareto-front algebra, exact agreement with
the solver on one world and with PIMC at depth 1, and decisions from the view only."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, assume, given, reject, settings
from hypothesis import strategies as st
from tests.bots_helpers import assert_same_choice, play_until

from paston.bots import make_player
from paston.bots.alphamu import AlphaMu, AlphaMuPlayer, Front, Node, front_max, front_min, root_node
from paston.bots.knowledge import World, uniform_worlds
from paston.bots.pimc import PimcPlayer
from paston.deal import Deal, Phase
from paston.scoring import DECLARER_NEEDS
from paston.solver import Position, Solver
from paston.views import DealView

SOLVER = Solver()
masks = st.integers(min_value=0, max_value=0b11111)


def declarer_to_play(plays: int) -> Callable[[Deal], bool]:
    """Stop when the declarer has a choice of cards, ``plays`` cards or more into the play."""

    def stop(deal: Deal) -> bool:
        return (
            deal.phase is Phase.PLAY
            and deal.to_move == deal.declarer
            and deal.played_mask.bit_count() >= plays
            and len(deal.legal_actions()) > 1
        )

    return stop


def declarer_view(seed: int, plays: int) -> tuple[Deal, DealView] | None:
    found = play_until(seed, declarer_to_play(plays))
    if found is None:
        return None
    deal, _ = found
    assert deal.declarer is not None
    return deal, deal.view(deal.declarer)


def fixed(worlds: list[World]) -> Callable[[DealView, int, random.Random], list[World]]:
    """A sampler that always draws the first ``n`` of ``worlds``."""
    return lambda view, n, rng: worlds[:n]


def search(view: DealView, worlds: list[World]) -> AlphaMu:
    assert view.contract is not None and view.declarer is not None
    return AlphaMu(
        SOLVER,
        worlds,
        contract=view.contract,
        declarer=view.declarer,
        defenders=view.defenders,
        root=root_node(view),
    )


# --- the algebra of fronts --------------------------------------------------------------------------
@given(st.lists(masks, min_size=1, max_size=8))
def test_front_keeps_exactly_the_undominated_plans(plans: list[int]) -> None:
    front = Front.of(0b11111, plans)
    assert set(front.plans) <= set(plans)
    for p in plans:  # every plan is dominated by (a subset of) one kept
        assert any(not p & ~q for q in front.plans)
    for p in front.plans:  # no kept plan dominates another
        assert not any(p != q and not p & ~q for q in front.plans)


@given(
    st.lists(masks, min_size=1, max_size=5),
    st.lists(masks, min_size=1, max_size=5),
    masks,
    masks,
)
def test_defender_min_is_the_entrywise_minimum_per_world(
    a: list[int], b: list[int], wa: int, wb: int
) -> None:
    assume(wa and wb)
    fa, fb = Front.of(wa, (p & wa for p in a)), Front.of(wb, (p & wb for p in b))
    combined = front_min(fa, fb)
    assert combined.worlds == wa | wb
    for p in fa.plans:
        for q in fb.plans:
            worst = 0
            for w in range(5):
                bit = 1 << w
                results = [bool(r & bit) for r, ws in ((p, wa), (q, wb)) if ws & bit]
                if results and all(results):
                    worst |= bit
            assert any(not worst & ~r for r in combined.plans)
    # and nothing better than some pair's minimum is claimed
    pairs = [(p & q) | (p & wa & ~wb) | (q & wb & ~wa) for p in fa.plans for q in fb.plans]
    assert all(r in pairs for r in combined.plans)
    assert front_max(None, combined) == combined


# --- exact: one world is perfect information ------------------------------------------------------------
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from([0, 3, 9]))
def test_one_world_agrees_with_the_solver_at_every_depth(seed: int, plays: int) -> None:
    found = declarer_view(seed, plays)
    assume(found is not None)
    assert found is not None
    deal, view = found
    world = (deal.hand_mask(0), deal.hand_mask(1), deal.hand_mask(2), 0)
    solution = SOLVER.solve(Position.from_deal(deal))
    for depth in (1, 2, 3):
        valued = search(view, [world]).root(depth)
        assert set(valued) == {c.index for c in solution.card_values}
        for card, tricks in solution.card_values.items():
            wins, vector = valued[card.index]
            assert vector == (tricks,)
            assert wins == int(tricks >= DECLARER_NEEDS), (depth, str(card))


# --- exact: depth 1 is PIMC --------------------------------------------------------------------------------
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from([0, 3, 6]), st.integers(0, 2**32))
def test_depth_one_is_pimc_on_the_same_worlds(seed: int, plays: int, draw: int) -> None:
    found = declarer_view(seed, plays)
    assume(found is not None)
    assert found is not None
    _, view = found
    worlds = uniform_worlds(view, 6, random.Random(draw))
    pimc = PimcPlayer(seed=1, level=1, sampler=fixed(worlds), threads=1).options(view)
    amu = AlphaMuPlayer(seed=1, level=1, depth=1, sampler=fixed(worlds), threads=1).options(view)
    assert [o.action for o in amu.options] == [o.action for o in pimc.options]
    assert [o.score for o in amu.options] == pytest.approx([o.score for o in pimc.options])
    assert [o.tricks for o in amu.options] == pytest.approx([o.tricks for o in pimc.options])
    assert amu.worlds == pimc.worlds == 6


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from([0, 3, 6]), st.integers(0, 2**32))
def test_no_plan_makes_more_worlds_than_double_dummy(seed: int, plays: int, draw: int) -> None:
    """The declarer who must choose one card for worlds it cannot tell apart never does
    better than PIMC's double-dummy count (which lets it choose per world)."""
    found = declarer_view(seed, plays)
    assume(found is not None)
    assert found is not None
    _, view = found
    worlds = uniform_worlds(view, 5, random.Random(draw))
    shallow = search(view, worlds).root(1)
    for depth in (2, 3):
        deep = search(view, worlds).root(depth)
        for card, (wins, vector) in deep.items():
            assert vector == shallow[card][1]
            assert 0 <= wins <= shallow[card][0]


# --- the player ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("seed", "plays"), [(0, 0), (3, 3), (10, 6), (12, 0)])
def test_amu_decides_from_the_view_only(seed: int, plays: int) -> None:
    found = play_until(seed, declarer_to_play(plays))
    assert found is not None, "the deal ends before the declarer plays"
    deal, actions = found
    assert_same_choice("amu:1", deal, actions, seed)


def test_amu_plays_whole_deals_legally_and_with_a_time_budget() -> None:
    for k in range(3):
        deal = Deal.random(random.Random(100 + k), dealer=k)
        bots = [AlphaMuPlayer(seed=k * 3 + s, level=1, card_seconds=0.02, threads=1) for s in range(3)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            action = bots[seat].choose(deal.view(seat))
            assert action in deal.legal_actions()
            deal.apply(action)


def test_amu_is_a_named_player_with_levels() -> None:
    bot = make_player("amu:2", seed=3)
    assert isinstance(bot, AlphaMuPlayer) and bot.level == 2 and bot.name == "amu"
    assert bot.pimc.level == 2 and bot.worlds == bot.pimc.settings.play
    assert isinstance(make_player("amu"), AlphaMuPlayer)


@pytest.mark.parametrize("kwargs", [{"depth": 0}, {"depth": 4}, {"worlds": 0}, {"card_seconds": -1.0}])
def test_amu_rejects_bad_settings(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        AlphaMuPlayer(**kwargs)  # type: ignore[arg-type]


def fresh_solve(s: AlphaMu, node: Node, world: int) -> dict[int, int]:
    """The solver's values at ``node`` in ``world`` from a validated position (no cache)."""
    hands = [h & ~node.played for h in s.hands[world]]
    pos = Position(
        hands=(hands[0], hands[1], hands[2]),
        contract=s.contract,
        declarer=s.declarer,
        defenders=s.defenders,
        leader=node.leader,
        trick=node.trick,
        tricks=node.tricks,
    )
    # a small table: a fresh one per call costs its allocation, which the default size makes
    # the bulk of this test's time
    return {c.index: t for c, t in Solver(memory_mb=0.25).solve(pos).card_values.items()}


def brute_force(s: AlphaMu, node: Node, depth: int, worlds: frozenset[int]) -> set[tuple[int, ...]]:
    """Every vector of results (per world of ``worlds``, in order; 1 made) the declarer can
    force with a plan of ``depth`` moves, the defenders choosing per world: no fronts, no
    pruning, no early stops (a naive statement of αμ's values)."""
    order = sorted(worlds)
    if sum(node.tricks) == 10:  # the play is over
        return {tuple(int(node.tricks[s.declarer] >= DECLARER_NEEDS) for _ in order)}
    seat = s._to_move(node)
    if seat == s.declarer:
        cards = s.declarer_cards(node, order[0])
        if depth <= 1:
            values = [fresh_solve(s, node, w) for w in order]
            return {tuple(int(v[c] >= DECLARER_NEEDS) for v in values) for c in cards}
        return set().union(*(brute_force(s, s._play(node, c), depth - 1, worlds) for c in cards))
    options: dict[int, set[int]] = {}
    for w in order:
        legal = s._legal(node, w, seat)
        for c in range(32):
            if legal >> c & 1:
                options.setdefault(c, set()).add(w)
    per_card = [
        (sorted(ws), brute_force(s, s._play(node, c), depth, frozenset(ws))) for c, ws in options.items()
    ]
    if math.prod(len(vectors) for _, vectors in per_card) > BRUTE_FORCE_LIMIT:
        raise TooBig  # an example too large to check by brute force (it ran for minutes in CI)
    out: set[tuple[int, ...]] = set()
    for choice in itertools.product(*(vectors for _, vectors in per_card)):
        result = {w: 1 for w in order}
        for (ws, _), vector in zip(per_card, choice, strict=True):
            for w, r in zip(ws, vector, strict=True):
                result[w] = min(result[w], r)
        out.add(tuple(result[w] for w in order))
    return out


#: The most choices of the opponents' vectors brute force goes through at one node.
BRUTE_FORCE_LIMIT = 20_000


class TooBig(Exception):
    """The brute force of an example would take too long: the example is rejected."""


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from([12, 15, 18]), st.integers(0, 2**32))
def test_the_search_finds_what_brute_force_finds(seed: int, plays: int, draw: int) -> None:
    try:
        check_against_brute_force(seed, plays, draw)
    except TooBig:
        reject()


def check_against_brute_force(seed: int, plays: int, draw: int) -> None:
    found = declarer_view(seed, plays)
    assume(found is not None)
    assert found is not None
    _, view = found
    worlds = uniform_worlds(view, 4, random.Random(draw))
    for depth in (2, 3):
        s = search(view, worlds)
        valued = s.root(depth)
        for card, (wins, _) in valued.items():
            child = s._play(s.root_node, card)
            vectors = brute_force(s, child, depth - 1, frozenset(range(4)))
            assert wins == max(sum(v) for v in vectors), (depth, card)
        for (world, node), cards in s.leaves.items():  # the cache holds exact values
            assert cards == fresh_solve(s, node, world)


def test_a_deep_search_past_its_cap_plays_pimcs_card(monkeypatch: pytest.MonkeyPatch) -> None:
    import paston.bots.alphamu as alphamu

    found = declarer_view(0, 0)
    assert found is not None
    _, view = found
    worlds = uniform_worlds(view, 6, random.Random(4))
    monkeypatch.setattr(alphamu, "DEEP_SECONDS_CAP", -1.0)  # every deep search times out
    amu = AlphaMuPlayer(seed=1, level=1, depth=2, sampler=fixed(worlds), threads=1)
    pimc = PimcPlayer(seed=1, level=1, sampler=fixed(worlds), threads=1)
    assert [o.action for o in amu.options(view).options] == [o.action for o in pimc.options(view).options]
    assert amu.last_depth == 1
    monkeypatch.setattr(alphamu, "DEEP_SECONDS_CAP", 60.0)
    amu.options(view)
    assert amu.last_depth == 2 and amu.last_worlds == 6


def test_amu_draws_its_worlds_from_the_inference_sampler_too() -> None:
    from paston.bots.inference import InferenceSampler

    found = declarer_view(3, 3)
    assert found is not None
    deal, view = found
    bot = AlphaMuPlayer(seed=2, level=1, sampler=InferenceSampler(), threads=1)
    assert isinstance(bot.sampler_in_use(), InferenceSampler)
    assert bot.choose(view) in deal.legal_actions()
    assert bot.last_depth == 2 and bot.last_worlds == 6
