"""The Gymnasium environment (:mod:`paston.env.gymnasium`): one seat against computer players.

Gymnasium's ``check_env``, the registration, computer players that decide from their own
seat's view only, rewards that are the agent's R7 scores (R8 in a whole game), and clear
errors for bad options and actions.
"""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from paston.actions import Action
from paston.env import gymnasium as pg
from paston.errors import IllegalActionError, ParseError
from paston.views import DealView


def test_check_env_with_pimc_and_heuristic_opponents() -> None:
    e = gymnasium.make("paston/Paston-v0", opponents="pimc:1,heuristic")
    check_env(e.unwrapped)
    assert e.unwrapped.opponents == ("pimc:1", "heuristic")


def test_check_env_for_a_whole_game() -> None:
    check_env(pg.PastonEnv(episode="game", rules="short", opponents="random", seat=2))


def test_make_by_module_path() -> None:
    e = gymnasium.make("paston.env.gymnasium:paston/Paston-v0", opponents="random")
    obs, _info = e.reset(seed=1)
    assert obs["observation"].shape == (423,) and obs["action_mask"].any()


def play(e: pg.PastonEnv, seed: int) -> tuple[float, dict[str, object]]:
    rng = random.Random(seed)
    obs, info = e.reset(seed=seed)
    total, terminated = 0.0, False
    while not terminated:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = e.step(int(legal[rng.randrange(len(legal))]))
        total += float(reward)
        assert not truncated
    return total, info


def test_r7_the_reward_is_the_agents_deal_score() -> None:
    for seed in range(12):
        e = pg.PastonEnv(opponents="heuristic")
        total, info = play(e, seed)
        deal = e.game.deal
        assert deal is not None and deal.result is not None
        assert total == deal.result.scores[e.seat] and info["seat"] == e.seat


def test_r8_a_game_episode_sums_the_agents_scores_of_every_deal() -> None:
    e = pg.PastonEnv(opponents="random", episode="game", rules="short", seat=1)
    total, _ = play(e, 4)
    match = e.game.match
    assert match is not None and match.is_over
    assert total == sum(d.result.scores[1] for d in match.deals if d.result is not None)


class Spy:
    """A computer player that records what it was shown and plays the first legal action."""

    name = "spy"

    def __init__(self) -> None:
        self.views: list[DealView] = []

    def choose(self, view: DealView) -> Action:
        self.views.append(view)
        return view.legal_actions[0]


def test_computer_players_decide_from_their_own_view(monkeypatch: pytest.MonkeyPatch) -> None:
    spies: list[Spy] = []

    def make(name: str, **_: object) -> Spy:
        spies.append(Spy())
        return spies[-1]

    monkeypatch.setattr(pg, "make_player", make)
    e = pg.PastonEnv(seat=0)
    play(e, 7)
    deal = e.game.deal
    assert deal is not None
    for spy, seat in zip(spies, (1, 2), strict=True):
        assert spy.views and all(isinstance(v, DealView) for v in spy.views)
        assert all(v.seat == seat and v.to_move == seat for v in spy.views)
        assert all(v.hand.mask & deal.dealt[(seat + 1) % 3] == 0 for v in spy.views)


def test_same_seed_same_episode() -> None:
    a, b = pg.PastonEnv(opponents="pimc:1,heuristic"), pg.PastonEnv(opponents="pimc:1,heuristic")
    assert play(a, 11) == play(b, 11)
    assert a.game.deal is not None and b.game.deal is not None
    assert a.game.deal.events == b.game.deal.events


def test_illegal_actions() -> None:
    e = pg.PastonEnv(opponents="random", seat=0)
    obs, _ = e.reset(seed=2)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    again, reward, terminated, _, info = e.step(bad)
    assert reward == -10.0 and not terminated and "illegal_action" in info
    assert again["observation"].tobytes() == obs["observation"].tobytes()
    e = pg.PastonEnv(opponents="random", seat=0, illegal_action="terminate")
    e.reset(seed=2)
    assert e.step(bad)[2] is True
    e = pg.PastonEnv(opponents="random", seat=0, illegal_action="raise")
    e.reset(seed=2)
    with pytest.raises(IllegalActionError):
        e.step(bad)
    with pytest.raises(ValueError, match="an action is an integer"):
        e.step("pass")


def test_bad_options_are_refused() -> None:
    with pytest.raises(ParseError, match="unknown player"):
        pg.PastonEnv(opponents="nobody")
    with pytest.raises(ValueError, match="one or two computer players"):
        pg.PastonEnv(opponents="random,random,random")
    with pytest.raises(ValueError, match="seat must be"):
        pg.PastonEnv(seat=3)
    with pytest.raises(RuntimeError, match="call reset"):
        pg.PastonEnv().step(0)
