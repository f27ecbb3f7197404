"""Environment speed: decisions per second of random legal play with an observation per decision.

Each loop plays random legal actions, taking the observation (float32 array) and the legal
actions of the player to move at every decision, as a learning program would:

- ``paston-core``: the environments' compiled deal (``paston.env.fastdeal.FastDeal``), no
  wrapper: a copy of the mover's observation, its mask's legal indices, ``core.step``;
- ``paston-encoder``: a ``Deal`` and a ``DealEncoder`` (``paston.encoding_fast``), no wrapper;
- ``paston-views``: a ``Deal``, the seat's ``DealView``, ``encoding.observe`` and
  ``encoding.legal_mask`` (the reference path, for comparison);
- ``pettingzoo``: ``paston.env.pettingzoo.env()`` (AEC; one-deal episodes run in the compiled
  deal): ``agent_iter``, ``last()``, a random action from ``action_mask``, ``step``;
  ``pettingzoo-game`` the same with whole games to 121 (``episode="game"``);
- ``gymnasium``: ``gymnasium.make("paston/Paston-v0", opponents="random")``: ``step`` with a
  random action from ``action_mask``; the two random computer players' decisions (through
  their views) happen inside and are counted separately;
- ``openspiel-paston``, ``openspiel-skat``: OpenSpiel's ``python_paston``
  (``paston.env.openspiel``) and its built-in C++ ``skat``, the same loop: the mover's
  observation tensor written in place (``make_observation(game).set_from``),
  ``legal_actions()``, ``apply_action``; chance nodes (the deal) sampled, not counted;
- ``rlcard-doudizhu``: RLCard's DouDizhu (``pip install rlcard``): ``step`` with a random
  legal action (RLCard builds the observation in ``step``).

    python benchmarks/env_speed.py [--seconds 2] [--trials 5] [--only pettingzoo,...]

Trials go round the loops in turn (so the machine's load falls on all alike) and the
median of each is printed. To add a loop (another library's game, say), write a function
``(seconds, seed) -> (decisions, elapsed)`` and register it with ``@loop("name")``; a loop
whose library is missing raises ``ImportError`` and is listed as skipped.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from envkit import pettingzoo_loop

Loop = Callable[[float, int], tuple[int, float]]
LOOPS: dict[str, Loop] = {}


def loop(name: str) -> Callable[[Loop], Loop]:
    """Register a benchmark loop under ``name``."""

    def register(fn: Loop) -> Loop:
        LOOPS[name] = fn
        return fn

    return register


@loop("paston-core")
def core_loop(seconds: float, seed: int) -> tuple[int, float]:
    from paston.env.fastdeal import VOID, FastDeal
    from paston.rules import Rules

    rng = random.Random(seed)
    fast = FastDeal(Rules())
    core, rows, mask = fast.core, fast.rows, fast.mask
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            mover = fast.reset(rng)
            while mover >= 0:
                rows[mover].copy()
                legal = mask.nonzero()[0]
                mover = core.step(legal[rng.randrange(len(legal))])
                decisions += 1
                if mover == VOID:  # R3.4: dealt again
                    mover = fast.redeal()
    return decisions, time.perf_counter() - start


@loop("paston-encoder")
def encoder_loop(seconds: float, seed: int) -> tuple[int, float]:
    from paston.deal import Deal
    from paston.encoding import ACTIONS
    from paston.encoding_fast import DealEncoder

    rng = random.Random(seed)
    encoder = DealEncoder()
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    dealer = 0
    while time.perf_counter() < deadline:
        for _ in range(20):
            deal = Deal.random(rng, dealer=dealer)
            dealer = (dealer + 1) % 3
            if deal.is_over:
                continue
            encoder.start(deal)
            while not deal.is_over:
                seat = deal.to_move
                assert seat is not None
                encoder.observation(seat)
                legal = encoder.mask.nonzero()[0]
                action = ACTIONS[legal[rng.randrange(len(legal))]]
                encoder.push(deal, deal.apply(action))
                decisions += 1
    return decisions, time.perf_counter() - start


@loop("paston-views")
def views_loop(seconds: float, seed: int) -> tuple[int, float]:
    from paston.deal import Deal
    from paston.encoding import ACTION_COUNT, ACTIONS, OBSERVATION_SIZE, legal_mask, observe

    rng = random.Random(seed)
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    mask = np.zeros(ACTION_COUNT, np.int8)
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    dealer = 0
    while time.perf_counter() < deadline:
        for _ in range(20):
            deal = Deal.random(rng, dealer=dealer)
            dealer = (dealer + 1) % 3
            while not deal.is_over:
                seat = deal.to_move
                assert seat is not None
                view = deal.view(seat)
                observe(view, obs)
                legal = legal_mask(view, mask).nonzero()[0]
                deal.apply(ACTIONS[legal[rng.randrange(len(legal))]])
                decisions += 1
    return decisions, time.perf_counter() - start


@loop("pettingzoo")
def pettingzoo_deal_loop(seconds: float, seed: int) -> tuple[int, float]:
    return pettingzoo_loop(seconds, seed, "deal")


@loop("pettingzoo-game")
def pettingzoo_game_loop(seconds: float, seed: int) -> tuple[int, float]:
    return pettingzoo_loop(seconds, seed, "game")


BOT_DECISIONS = [0]


@loop("gymnasium")
def gymnasium_loop(seconds: float, seed: int) -> tuple[int, float]:
    import gymnasium

    import paston.env.gymnasium  # noqa: F401  (registers paston/Paston-v0)

    rng = random.Random(seed)
    e = gymnasium.make("paston/Paston-v0", opponents="random")
    obs, _ = e.reset(seed=seed)
    game = e.unwrapped.game  # type: ignore[attr-defined]
    decisions = total = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            obs, _ = e.reset()
            terminated = False
            while not terminated:
                legal = obs["action_mask"].nonzero()[0]
                obs, _reward, terminated, _truncated, _info = e.step(legal[rng.randrange(len(legal))])
                decisions += 1
            total += game.decisions
    BOT_DECISIONS[0] += total - decisions
    return decisions, time.perf_counter() - start


def _openspiel_loop(game_string: str, seconds: float, seed: int) -> tuple[int, float]:
    import pyspiel
    from open_spiel.python.observation import make_observation

    import paston.env.openspiel  # noqa: F401  (registers python_paston)

    game = pyspiel.load_game(game_string)
    observation = make_observation(game)
    rng = random.Random(seed)
    choice, choices = rng.choice, rng.choices
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(5):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(choices(outcomes, probs)[0])
                    continue
                observation.set_from(state, state.current_player())
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
    return decisions, time.perf_counter() - start


@loop("openspiel-paston")
def openspiel_paston_loop(seconds: float, seed: int) -> tuple[int, float]:
    return _openspiel_loop("python_paston", seconds, seed)


@loop("openspiel-skat")
def openspiel_skat_loop(seconds: float, seed: int) -> tuple[int, float]:
    return _openspiel_loop("skat", seconds, seed)


@loop("rlcard-doudizhu")
def rlcard_doudizhu_loop(seconds: float, seed: int) -> tuple[int, float]:
    import rlcard

    rng = random.Random(seed)
    env = rlcard.make("doudizhu", config={"seed": seed})
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            decisions += 1
    return decisions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one trial of one loop")
    parser.add_argument("--trials", type=int, default=5, help="trials per loop (median reported)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default="", help="comma-separated loop names (default: all)")
    args = parser.parse_args()
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(LOOPS)
    unknown = [n for n in names if n not in LOOPS]
    if unknown:
        parser.error(f"unknown loop(s) {', '.join(unknown)}; known: {', '.join(LOOPS)}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rates: dict[str, list[float]] = {n: [] for n in names}
    skipped: dict[str, str] = {}
    for trial in range(args.trials):
        for name in names:
            if name in skipped:
                continue
            try:
                decisions, elapsed = LOOPS[name](args.seconds, args.seed + trial)
            except ImportError as error:
                skipped[name] = str(error)
                continue
            rates[name].append(decisions / elapsed)
            print(f"trial {trial + 1} {name:<16} {decisions / elapsed:>12,.0f} decisions/s")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"\n{'loop':<16} {'median decisions/s':>20}")
    for name in names:
        if name in skipped:
            print(f"{name:<16} {'skipped':>20}  ({skipped[name]})")
        elif rates[name]:
            print(f"{name:<16} {statistics.median(rates[name]):>20,.0f}")
    if rates.get("gymnasium"):
        print(
            f"(gymnasium: the agent's steps; the computer players made {BOT_DECISIONS[0]:,} more decisions)"
        )


if __name__ == "__main__":
    main()
