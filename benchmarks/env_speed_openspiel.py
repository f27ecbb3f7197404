"""Random legal play through OpenSpiel, with an observation tensor per decision: decisions/s.

Three loops of the same shape, driven from Python: OpenSpiel's ``python_paston``
(:mod:`paston.env.openspiel`), OpenSpiel's built-in C++ ``skat``, and RLCard's
``doudizhu`` when RLCard is installed. Each decision writes the mover's observation tensor
(OpenSpiel: ``make_observation(game)``, one buffer filled in place; RLCard computes its
observation in ``step``), lists the legal actions and applies one at random; chance nodes
are sampled and not counted.

    python benchmarks/env_speed_openspiel.py [--seconds 2] [--trials 5] [--seed 0]

Prints each trial and the median per environment. ``benchmarks/env_speed.py`` imports
:func:`measurements` to print these beside the other wrappers.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

Rate = Callable[[float, int], float]


def openspiel_rate(game_string: str) -> Rate:
    """A timer of random play through the OpenSpiel game ``game_string``."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    import paston.env.openspiel  # noqa: F401  (registers python_paston)

    game = pyspiel.load_game(game_string)
    observation = make_observation(game)

    def rate(seconds: float, seed: int) -> float:
        rng = random.Random(seed)
        choice, choices = rng.choice, rng.choices
        decisions = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(choices(outcomes, probs)[0])
                    continue
                observation.set_from(state, state.current_player())
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
        return decisions / (time.perf_counter() - start)

    return rate


def rlcard_rate(name: str) -> Rate | None:
    """A timer of random play through RLCard's ``name``; ``None`` without RLCard."""
    try:
        import rlcard
    except ImportError:
        return None

    def rate(seconds: float, seed: int) -> float:
        rng = random.Random(seed)
        env = rlcard.make(name, config={"seed": seed})
        decisions = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(rng.choice(list(state["legal_actions"])))
                decisions += 1
        return decisions / (time.perf_counter() - start)

    return rate


def measurements() -> dict[str, Rate]:
    """The loops this file times, by the name printed for each."""
    out: dict[str, Rate] = {
        "OpenSpiel python_paston (Python)": openspiel_rate("python_paston"),
        "OpenSpiel skat (C++)": openspiel_rate("skat"),
    }
    doudizhu = rlcard_rate("doudizhu")
    if doudizhu is not None:
        out["RLCard doudizhu"] = doudizhu
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one trial")
    parser.add_argument("--trials", type=int, default=5, help="trials per environment (median reported)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    loops = measurements()
    rates: dict[str, list[float]] = {name: [] for name in loops}
    for t in range(args.trials):  # interleaved, so a busy moment hits every loop alike
        for name, rate in loops.items():
            rates[name].append(rate(args.seconds, args.seed + t))
            print(f"trial {t + 1}: {name}: {rates[name][-1]:,.0f} decisions/s")
    for name, found in rates.items():
        print(f"median {name}: {statistics.median(found):,.0f} decisions/s")
    if "RLCard doudizhu" not in loops:
        print("RLCard is not installed: pip install rlcard to time doudizhu")


if __name__ == "__main__":
    main()
