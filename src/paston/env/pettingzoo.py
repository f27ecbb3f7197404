"""Paston as a PettingZoo environment: AEC (:func:`env`, :func:`raw_env`) and parallel
(:func:`parallel_env`).

Agents ``player_0``, ``player_1``, ``player_2`` sit in seats 0, 1, 2. Each observation is
``{"observation": float32[OBSERVATION_SIZE], "action_mask": int8[ACTION_COUNT]}`` from
:mod:`paston.encoding` (the mask is all zeros for an agent not to move). Actions are the
indices of :mod:`paston.encoding` (541). Rewards are the R7 scores of each finished deal.

Options (keywords of :func:`env`, :func:`raw_env` and :func:`parallel_env`):

- ``episode``: ``"deal"`` (one ordinary deal; the default) or ``"game"`` (a whole game to
  the target, R8; a reward after every deal);
- ``rules``: a :class:`~paston.rules.Rules`, a text such as ``"short,surrender_bonus=0"``,
  or a record's ``rules`` object;
- ``first_deal``: one-deal episodes under the first deal's rules (R1.5, R2.1);
- ``illegal_action``: what an illegal action does: ``"penalty"`` (the default: refused,
  the state unchanged, ``illegal_reward`` to the agent, ``infos[agent]["illegal_action"]``
  names the rule, and the agent moves again), ``"terminate"`` (the episode ends,
  ``illegal_reward`` to the agent, 0 to the others) or ``"raise"`` (the engine's
  :class:`~paston.errors.IllegalActionError`, nothing changed);
- ``illegal_reward``: −10.0 by default (a failed spades contract);
- ``max_cycles``: truncate the episode after this many steps (decisions, refused ones
  included); ``None`` (the default) never truncates;
- ``render_mode``: ``"ansi"`` (``render()`` returns the table as text) or ``"human"``
  (printed).

>>> e = env(episode="deal")
>>> e.reset(seed=7)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     e.step(None if terminated or truncated else int(obs["action_mask"].argmax()))
>>> e.agents
[]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from paston.encoding import ACTION_COUNT, OBSERVATION_SIZE, observation_bounds
from paston.env.fastdeal import ILLEGAL
from paston.env.game import ILLEGAL_ACTIONS, EpisodeGame, action_number, check_choice
from paston.env.render import render_for
from paston.rules import Rules

__all__ = ["AGENTS", "env", "parallel_env", "raw_env"]

AGENTS = ("player_0", "player_1", "player_2")
_SEAT = {agent: seat for seat, agent in enumerate(AGENTS)}


def observation_space() -> spaces.Dict:
    """The observation space of one agent (and of Gymnasium's one seat)."""
    low, high = observation_bounds()
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, (OBSERVATION_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), np.int8),
        }
    )


class raw_env(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """The AEC environment (see the module's description for the options)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "paston_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        *,
        episode: str = "deal",
        rules: Rules | str | Mapping[str, object] | None = None,
        first_deal: bool = False,
        illegal_action: str = "penalty",
        illegal_reward: float = -10.0,
        max_cycles: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = EpisodeGame(episode=episode, rules=rules, first_deal=first_deal)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.illegal_reward = float(illegal_reward)
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise ValueError(f"max_cycles must be a positive integer or None, not {max_cycles!r}")
        self.max_cycles = max_cycles
        if render_mode is not None:
            check_choice("render_mode", render_mode, ("human", "ansi"))
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self._observation_space = observation_space()
        self._action_spaces = {agent: spaces.Discrete(ACTION_COUNT) for agent in AGENTS}
        self._zero_mask = np.zeros(ACTION_COUNT, np.int8)
        self._rng = random.Random()
        self._rewarded = False
        self._plain = False
        fast = self.game.fast
        self._rows, self._mask = self.game.rows, self.game.mask  # the core's arrays, never replaced
        plain = max_cycles is None and render_mode is None
        self._core_step: Callable[[object], int] | None = None
        if fast is not None and plain:
            self._core_step = fast.core.step

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict space for every agent."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Discrete(541), one object per agent."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode; ``seed`` makes it (and every later unseeded reset) reproducible."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.game.reset(self._rng)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._rewarded = False
        mover = self.game.to_move
        assert mover is not None
        self.agent_selection = AGENTS[mover]
        self._plain = self._core_step is not None

    # The hot loop (agent_iter, last, step) takes a short path while the episode is
    # "plain": a one-deal episode in the compiled core, no reward, info, truncation or
    # rendering pending (every cumulative reward 0, every agent live). Anything else
    # (the end of the deal, an illegal action, max_cycles, render_mode) goes the general
    # way, which says whether the next step may be plain again.
    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act, step after step, while any is live (``max_iter`` at most)."""
        return _agents(self, max_iter)

    def last(self, observe: bool = True) -> tuple[dict[str, Any] | None, float, bool, bool, dict[str, Any]]:
        """The observation, cumulative reward, terminated, truncated and info of
        ``agent_selection``."""
        agent = self.agent_selection
        if self._plain and observe:  # the agent to move: its mask is the mover's
            observation = {"observation": self._rows[_SEAT[agent]].copy(), "action_mask": self._mask.copy()}
            return observation, 0.0, False, False, self.infos[agent]
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation and its legal mask (copies)."""
        seat = _SEAT[agent]
        game = self.game
        if not game.started:
            raise RuntimeError("observe() before reset(): call reset() first")
        mask = game.mask if seat == game.to_move else self._zero_mask
        return {"observation": game.rows[seat].copy(), "action_mask": mask.copy()}

    def step(self, action: Any) -> None:
        """Act for ``agent_selection`` (``None`` for an agent whose episode has ended)."""
        if self._plain:
            assert self._core_step is not None
            mover = self._core_step(action)  # a bad action raises here, nothing changed
            if mover >= 0:
                self.agent_selection = AGENTS[mover]
                return
            if mover != ILLEGAL:  # the deal ended (scored, or void and dealt again)
                self._acted(self.game.settle(mover))
                self._after_step()
                return
        self._step(action)

    def _step(self, action: Any) -> None:
        if not self.agents:
            raise RuntimeError("the episode is over (or was never started): call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        index = action_number(action)
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        self._cumulative_rewards[agent] = 0.0
        if self.infos[agent]:
            self.infos[agent] = {}
        if game.is_legal(index):
            self._acted(game.act(index))
        else:
            error = game.why_illegal(index)
            assert error is not None
            if self.illegal_action == "raise":
                self._update_plain()
                raise error
            game.decisions += 1
            self.rewards[agent] = self.illegal_reward
            self._rewarded = True
            self.infos[agent] = {"illegal_action": str(error)}
            if self.illegal_action == "terminate":
                self._end(truncated=False)
        self._after_step()

    def _acted(self, scores: tuple[int, int, int] | None) -> None:
        if scores is not None:
            rewards = self.rewards
            rewards["player_0"], rewards["player_1"], rewards["player_2"] = map(float, scores)
            self._rewarded = True
        mover = self.game.to_move
        if mover is None:
            self._end(truncated=False)
        else:
            self.agent_selection = AGENTS[mover]

    def _after_step(self) -> None:
        game = self.game
        if self.max_cycles is not None and not game.done and game.decisions >= self.max_cycles:
            self._end(truncated=True)
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()
        self._update_plain()

    def _update_plain(self) -> None:
        game = self.game
        self._plain = (
            self._core_step is not None
            and not game.done
            and not self._rewarded
            and not any(self._cumulative_rewards.values())
            and not any(self.infos.values())
        )

    def _end(self, *, truncated: bool) -> None:
        self.game.stop()
        self._plain = False
        flags = self.truncations if truncated else self.terminations
        for agent in self.agents:
            flags[agent] = True

    def render(self) -> str | None:
        """The table as text: returned (``ansi``) or printed (``human``)."""
        return render_for(self.render_mode, self.game)

    def close(self) -> None:
        """Nothing to release."""


def _agents(env: raw_env, max_iter: int) -> Iterator[str]:
    while env.agents and max_iter > 0:
        max_iter -= 1
        yield env.agent_selection


def env(**options: Any) -> raw_env:
    """The AEC environment (see the options above). It checks the order of calls itself
    (a clear error for ``step`` or ``observe`` before ``reset``), so it comes without
    PettingZoo's ``OrderEnforcingWrapper``, whose attribute look-ups cost a third of a
    random-play loop (decision N5)."""
    return raw_env(**options)


class ParallelPaston(ParallelEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """The parallel form: every live agent sends an action each step; only the action of
    the agent to move counts (the others' masks are all zeros and their actions are
    ignored). One step is one decision, so ``max_cycles`` means the same as in AEC."""

    metadata: ClassVar[dict[str, Any]] = {"name": "paston_v0", "render_modes": ["human", "ansi"]}

    def __init__(self, **options: Any) -> None:
        self.aec = raw_env(**options)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(AGENTS)
        return {a: self.aec.observe(a) for a in AGENTS}, {a: {} for a in AGENTS}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, dict[str, Any]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        aec = self.aec
        if not self.agents:
            raise RuntimeError("the episode is over (or was never started): call reset()")
        mover = aec.agent_selection
        if mover not in actions:
            raise ValueError(f"no action for {mover}, the agent to move")
        aec.step(actions[mover])
        rewards = {a: float(aec.rewards[a]) for a in self.agents}
        terminations = {a: aec.terminations[a] for a in self.agents}
        truncations = {a: aec.truncations[a] for a in self.agents}
        infos = {a: dict(aec.infos[a]) for a in self.agents}
        observations = {a: aec.observe(a) for a in self.agents}
        if aec.game.done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def parallel_env(**options: Any) -> ParallelPaston:
    """The parallel environment (same options as :func:`env`)."""
    return ParallelPaston(**options)
