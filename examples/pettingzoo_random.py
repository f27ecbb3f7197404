"""A random agent in all three seats of the PettingZoo AEC environment.

The standard AEC loop: ``agent_iter()`` names the agent to act, ``last()`` gives its
observation (``{"observation", "action_mask"}``) and the reward it collected since it last
acted, and ``step()`` plays its action — here a legal action drawn uniformly from the mask,
or ``None`` once the agent is done. Rewards are the R7 scores of the deal.

    python examples/pettingzoo_random.py --episodes 1000 --seed 0
"""

from __future__ import annotations

import argparse

import numpy as np

from paston.env.pettingzoo import AGENTS, env


def main(argv: list[str] | None = None) -> None:
    """Play the episodes and print each agent's mean reward."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=100, help="deals to play")
    parser.add_argument("--seed", type=int, default=0, help="seeds the deals and the agents")
    parser.add_argument("--game", action="store_true", help="whole games to the target, not single deals")
    args = parser.parse_args(argv)

    e = env(episode="game" if args.game else "deal")
    rng = np.random.default_rng(args.seed)
    totals = dict.fromkeys(AGENTS, 0.0)
    decisions = 0
    for episode in range(args.episodes):
        e.reset(seed=args.seed * 1_000_003 + episode)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            totals[agent] += float(reward)  # the reward since this agent last acted
            if terminated or truncated:
                action = None  # a done agent must step None
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                decisions += 1
            e.step(action)
    e.close()
    print(f"{args.episodes} episodes, {decisions} decisions")
    for agent in AGENTS:
        print(f"{agent}: mean reward {totals[agent] / args.episodes:+.3f}")


if __name__ == "__main__":
    main()
