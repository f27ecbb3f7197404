"""Paston as a Gymnasium environment: one seat against computer players.

Importing this module registers ``paston/Paston-v0`` (Gymnasium 1.x loads no plugins by
itself, so import it, or name it: ``gymnasium.make("paston.env.gymnasium:paston/Paston-v0")``).
The other two seats are computer players from :func:`paston.bots.base.make_player`, each
choosing from its own seat's view only.

Options (keywords of ``gymnasium.make`` and :class:`PastonEnv`):

- ``opponents``: the two computer players, ``"pimc:1,heuristic"`` (the seat on the
  agent's left first), or one name for both; ``"heuristic"`` by default;
- ``seat``: the agent's seat, 0–2, or ``None`` (the default) for a seat drawn each episode
  (``info["seat"]``);
- ``episode``, ``rules``, ``first_deal``, ``illegal_action``, ``illegal_reward``: as in
  :mod:`paston.env.pettingzoo`;
- ``bot_time_budget``: seconds a ``pimc`` player may think per decision (``None``: its
  fixed number of worlds, reproducible by seed).

The observation is ``{"observation": float32[423], "action_mask": int8[541]}``
(:mod:`paston.encoding`); the reward of a step is the agent's R7 score of every deal that
ended in it (its own action and the computer players' after it).

>>> import gymnasium
>>> e = gymnasium.make("paston/Paston-v0", opponents="random")
>>> obs, info = e.reset(seed=3)
>>> terminated = False
>>> while not terminated:
...     obs, reward, terminated, truncated, info = e.step(int(obs["action_mask"].argmax()))
>>> isinstance(reward, float), info["seat"] in (0, 1, 2)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from paston.bots.base import Player, make_player, parse_player_name
from paston.encoding import ACTION_COUNT, action_index
from paston.env.game import ILLEGAL_ACTIONS, EpisodeGame, action_number, check_choice
from paston.env.pettingzoo import observation_space
from paston.env.render import render_for
from paston.rules import Rules

__all__ = ["ENV_ID", "PastonEnv", "parse_opponents"]

ENV_ID = "paston/Paston-v0"


def parse_opponents(opponents: str | Sequence[str]) -> tuple[str, str]:
    """The two computer players' names from ``"a,b"``, ``"a"`` (both) or a pair; a clear
    error for an unknown name."""
    names = [n.strip() for n in opponents.split(",")] if isinstance(opponents, str) else list(opponents)
    if len(names) == 1:
        names = names * 2
    if len(names) != 2 or not all(isinstance(n, str) and n for n in names):
        raise ValueError(f"opponents must name one or two computer players, not {opponents!r}")
    for name in names:
        parse_player_name(name)
    return names[0], names[1]


class PastonEnv(gymnasium.Env[dict[str, Any], Any]):
    """One seat of Paston against two computer players (see the module for the options)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        *,
        opponents: str | Sequence[str] = "heuristic",
        seat: int | None = None,
        episode: str = "deal",
        rules: Rules | str | Mapping[str, object] | None = None,
        first_deal: bool = False,
        illegal_action: str = "penalty",
        illegal_reward: float = -10.0,
        bot_time_budget: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.opponents = parse_opponents(opponents)
        if seat is not None and (type(seat) is not int or not 0 <= seat <= 2):
            raise ValueError(f"seat must be 0, 1, 2 or None, not {seat!r}")
        self.fixed_seat = seat
        self.game = EpisodeGame(episode=episode, rules=rules, first_deal=first_deal)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.illegal_reward = float(illegal_reward)
        self.bot_time_budget = bot_time_budget
        if render_mode is not None:
            check_choice("render_mode", render_mode, ("human", "ansi"))
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self.seat = 0
        self._bots: dict[int, Player] = {}
        self._zero_mask = np.zeros(ACTION_COUNT, np.int8)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new episode: the seat (unless fixed), the deck and the players seeded from ``seed``."""
        super().reset(seed=seed)
        draw = self.np_random.integers(0, 2**62, size=4)
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(draw[0] % 3)
        self._bots = {
            (self.seat + k) % 3: make_player(name, seed=int(draw[k]), time_budget=self.bot_time_budget)
            for k, name in ((1, self.opponents[0]), (2, self.opponents[1]))
        }
        self.game.reset(random.Random(int(draw[3])))
        self._bots_play()
        return self._observation(), self._info()

    def _bots_play(self) -> float:
        """The computer players act until the agent is to move or the episode ends; the
        agent's score of every deal that ended meanwhile."""
        game = self.game
        reward = 0.0
        while not game.done and game.to_move != self.seat:
            seat = game.to_move
            assert seat is not None
            action = self._bots[seat].choose(game.view(seat))
            scores = game.act(action_index(action))
            if scores is not None:
                reward += scores[self.seat]
        return reward

    def _observation(self) -> dict[str, Any]:
        game = self.game
        mask = game.mask if game.to_move == self.seat else self._zero_mask
        return {"observation": game.rows[self.seat].copy(), "action_mask": mask.copy()}

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"seat": self.seat, "totals": self.game.totals, **extra}

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the agent's action, then the computer players' until the agent's next turn."""
        game = self.game
        if game.done or not game.started:
            raise RuntimeError("the episode is over (or was never started): call reset()")
        index = action_number(action)
        error = game.why_illegal(index)
        if error is not None:
            if self.illegal_action == "raise":
                raise error
            if self.illegal_action == "terminate":
                game.stop()
            info = self._info(illegal_action=str(error))
            return self._observation(), self.illegal_reward, game.done, False, info
        scores = game.act(index)
        reward = 0.0 if scores is None else float(scores[self.seat])
        reward += self._bots_play()
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, game.done, False, self._info()

    def render(self) -> str | None:
        """The table as text: returned (``ansi``) or printed (``human``)."""
        return render_for(self.render_mode, self.game)


def register_envs() -> None:
    """Register ``paston/Paston-v0`` with Gymnasium (done on import; safe to repeat)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="paston.env.gymnasium:PastonEnv")


register_envs()
