"""The PettingZoo environment (:mod:`paston.env.pettingzoo`).

PettingZoo's own checks (``api_test``, ``seed_test``, ``max_cycles_test``), then what the
rules ask of it: the rewards are the R7 scores of the deal, a game runs to the target
(R8.3), each observation is the seat's own (the encoder's, equal to the view's), and an
illegal action is refused, penalized, ends the episode or raises, as asked, and never
changes the deal.
"""

from __future__ import annotations

import random
import types

import numpy as np
import pettingzoo  # noqa: F401 (CI installs it: a missing package fails, never skips)
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

from paston import encoding as enc
from paston.env import pettingzoo as pz
from paston.errors import IllegalActionError


def test_pettingzoo_api_test() -> None:
    api_test(pz.env(), num_cycles=300)
    api_test(pz.env(episode="game", rules="short"), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(pz.env, num_cycles=300)
    seed_test(lambda: pz.env(episode="game"), num_cycles=300)


def test_pettingzoo_parallel_api_test() -> None:
    parallel_api_test(pz.parallel_env(), num_cycles=300)


def test_pettingzoo_max_cycles_test() -> None:
    """max_cycles_test counts one step per agent per cycle, which only the simultaneous
    form has: it drives ``parallel_env`` and PettingZoo's AEC conversion of it. Its random
    actions ignore the mask, so they are refused (the default ``penalty``) and the
    episode runs to ``max_cycles``."""
    max_cycles_test(
        types.SimpleNamespace(
            parallel_env=pz.parallel_env,
            env=lambda **options: parallel_to_aec(pz.parallel_env(**options)),
        )
    )
    aec = pz.env(max_cycles=4)  # the AEC form truncates after 4 decisions
    aec.reset(seed=1)
    steps = 0
    for _agent in aec.agent_iter():
        _, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else 0)
        steps += not (terminated or truncated)
    assert steps == 4


def random_episode(e: object, seed: int) -> tuple[dict[str, float], int]:
    """Random legal play of one episode; the rewards summed per agent and the decisions."""
    rng = random.Random(seed)
    e.reset(seed=seed)  # type: ignore[attr-defined]
    total = dict.fromkeys(pz.AGENTS, 0.0)
    decisions = 0
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, _info = e.last()  # type: ignore[attr-defined]
        total[agent] += reward
        if terminated or truncated:
            e.step(None)  # type: ignore[attr-defined]
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))  # type: ignore[attr-defined]
        decisions += 1
    return total, decisions


def test_r7_rewards_are_the_deal_scores() -> None:
    for seed in range(30):
        e = pz.raw_env()
        total, decisions = random_episode(e, seed)
        deal = e.game.deal
        assert deal is not None and deal.result is not None
        assert total == {agent: float(deal.result.scores[seat]) for seat, agent in enumerate(pz.AGENTS)}
        assert decisions == deal.event_count


def test_r8_3_a_game_episode_runs_to_the_target_and_rewards_every_deal() -> None:
    e = pz.raw_env(episode="game", rules="short")
    total, _ = random_episode(e, 3)
    match = e.game.match
    assert match is not None and match.is_over and max(match.totals) >= 61
    scored = [d.result.scores for d in match.deals if d.result is not None]
    assert len(scored) == match.completed_deals >= 2
    assert total == {agent: float(sum(s[seat] for s in scored)) for seat, agent in enumerate(pz.AGENTS)}


def test_each_agent_observes_its_own_view() -> None:
    e = pz.raw_env(episode="game", rules="short")
    e.reset(seed=5)
    rng = random.Random(5)
    for _ in range(200):
        if e.game.done:
            break
        game = e.game
        assert game.deal is not None
        for seat, agent in enumerate(pz.AGENTS):
            obs = e.observe(agent)
            assert obs["observation"].tobytes() == enc.observe(game.view(seat)).tobytes()
            assert obs["action_mask"].tobytes() == enc.legal_mask(game.view(seat)).tobytes()
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))


def test_observations_are_copies() -> None:
    e = pz.env()
    e.reset(seed=2)
    first = e.observe(e.agent_selection)
    kept = first["observation"].copy()
    e.step(int(np.flatnonzero(first["action_mask"])[0]))
    assert first["observation"].tobytes() == kept.tobytes()


def illegal_index(e: pz.raw_env) -> int:
    return int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])


def test_an_illegal_action_is_refused_and_penalized_by_default() -> None:
    e = pz.raw_env()
    e.reset(seed=4)
    agent = e.agent_selection
    before = e.observe(agent)["observation"].copy()
    e.step(illegal_index(e))
    assert e.agent_selection == agent and not any(e.terminations.values())
    assert e._cumulative_rewards[agent] == -10.0
    assert "R3.2" in e.infos[agent]["illegal_action"]
    assert e.observe(agent)["observation"].tobytes() == before.tobytes()
    assert e.game.deal is not None and e.game.deal.event_count == 0


def test_illegal_action_terminate_and_raise() -> None:
    e = pz.raw_env(illegal_action="terminate", illegal_reward=-5)
    e.reset(seed=4)
    agent = e.agent_selection
    e.step(illegal_index(e))
    assert all(e.terminations.values()) and e._cumulative_rewards[agent] == -5.0
    e = pz.raw_env(illegal_action="raise")
    e.reset(seed=4)
    with pytest.raises(IllegalActionError) as caught:
        e.step(illegal_index(e))
    assert caught.value.rule == "R3.2"
    assert e.game.deal is not None and e.game.deal.event_count == 0 and not any(e.terminations.values())


@pytest.mark.parametrize("bad", [-1, 541, 2.5, "pass", None, True])
def test_actions_that_are_not_indices_are_refused_with_a_clear_error(bad: object) -> None:
    e = pz.raw_env()
    e.reset(seed=4)
    with pytest.raises(ValueError, match="an action is an integer 0 to 540"):
        e.step(bad)
    assert e.game.deal is not None and e.game.deal.event_count == 0


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="episode must be one of"):
        pz.env(episode="match")
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        pz.env(illegal_action="ignore")
    with pytest.raises(ValueError, match="max_cycles"):
        pz.env(max_cycles=0)
    with pytest.raises(RuntimeError, match="call reset"):
        pz.raw_env().step(0)


def test_render_shows_the_table() -> None:
    e = pz.raw_env(render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "to move" in text and text.count("seat ") >= 4


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(-3, 600), min_size=1, max_size=120))
def test_any_sequence_of_actions_leaves_a_consistent_game(seed: int, picks: list[int]) -> None:
    """Legal, illegal and out-of-range actions in any order: refusals change nothing, and
    every agent's observation stays the one its view gives."""
    e = pz.raw_env(episode="game", rules="short")
    e.reset(seed=seed)
    for pick in picks:
        if not e.agents:
            break
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
            continue
        mask = e.observe(agent)["action_mask"]
        legal = np.flatnonzero(mask)
        action = int(legal[pick % len(legal)]) if pick % 2 else pick
        game = e.game
        before = (game.deal, game.deal.event_count if game.deal else 0)
        if not 0 <= action < enc.ACTION_COUNT:
            with pytest.raises(ValueError):
                e.step(action)
            assert (game.deal, game.deal.event_count if game.deal else 0) == before
            continue
        e.step(action)
        if not mask[action]:
            assert (game.deal, game.deal.event_count if game.deal else 0) == before
            assert e.agent_selection == agent and "illegal_action" in e.infos[agent]
        if not game.done:
            for seat, name in enumerate(pz.AGENTS):
                assert e.observe(name)["observation"].tobytes() == enc.observe(game.view(seat)).tobytes()
