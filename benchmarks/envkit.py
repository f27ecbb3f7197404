"""Shared by the environment benchmarks: the PettingZoo loop of ``env_speed.py`` (its
``pettingzoo`` and ``pettingzoo-game`` loops), which ``env_breakdown.py`` takes apart.

A library module, not a script: the benchmarks import it by name (their folder is on
``sys.path`` when they run as ``python benchmarks/<name>.py``).
"""

from __future__ import annotations

import random
import time


def pettingzoo_loop(seconds: float, seed: int, episode: str = "deal") -> tuple[int, float]:
    """Random legal play through ``paston.env.pettingzoo.env(episode=episode)`` for
    ``seconds``: ``agent_iter``, ``last()``, a random action from ``action_mask``,
    ``step``. Returns the decisions made and the seconds they took."""
    from paston.env.pettingzoo import env

    rng = random.Random(seed)
    e = env(episode=episode)
    e.reset(seed=seed)
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20 if episode == "deal" else 1):
            e.reset()
            for _agent in e.agent_iter():
                obs, _reward, terminated, truncated, _info = e.last()
                if terminated or truncated:
                    e.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                e.step(legal[rng.randrange(len(legal))])
                decisions += 1
    return decisions, time.perf_counter() - start
