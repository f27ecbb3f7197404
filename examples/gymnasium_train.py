"""Train a small agent on the Gymnasium environment, then measure it against a random agent.

The agent is a *linear softmax policy*: each legal action gets a preference, linear in
the 423-float observation ``x`` of :mod:`paston.encoding`, and the agent draws among the
legal actions (the ``action_mask``) with probabilities ``softmax`` of those preferences.

- a bid, pass, trump, surrender or whist ``a``: ``W[a] · x`` (its own weight vector);
- a discard of cards ``c1``, ``c2``: ``W[a] · x + (U[c1] + U[c2]) · x`` — ``U`` holds one
  weight vector per card, learned from every pair it is in (each of the 496 pairs alone
  is seen too rarely to learn much);
- a card ``c`` to play: ``W[c] · x + theta · card_features(x, c)`` — ten hand-made features
  (does it win the trick so far, is it a trump, the highest card left in its suit, …)
  shared by all the cards, so a lesson about one card holds for all.

It learns by REINFORCE: after each deal, every choice it made is pushed towards (or away
from) the action taken, in proportion to how much better the deal's score was than
expected. The expectation (the *baseline*) is a linear value ``V(x) = v · x`` learned
alongside; it removes most of the luck of the cards from the learning signal. A small
entropy bonus (``--entropy``) keeps it trying bids for a while: without it, some runs learn
early that bidding loses (their card play is still weak) and never bid again. numpy only.

It plays one seat (drawn each deal) against two computer players (``--opponents``,
``heuristic`` by default). After training, the trained agent (greedy: its most preferred
legal action) and a random agent play the *same* deals — same seeds, so the same cards,
seat and opponents — and the example prints both means and a bootstrap 95% confidence
interval of the mean paired difference, in R7 points per deal.

With the observation alone (no ``U``, no card features) the agent learns only to stay out:
its card play stays too weak to make a contract, so it stops bidding and whisting and
scores about 0 per deal. Sharing across cards is what lets it bid and make contracts.

    python examples/gymnasium_train.py                       # 3 minutes of training
    python examples/gymnasium_train.py --seconds 2 --eval-deals 50   # a smoke run
    python examples/gymnasium_train.py --save agent.npz      # keep the weights
    python examples/gymnasium_train.py --load agent.npz --seconds 0  # evaluate them again

Training and evaluation are seeded (``--seed``); a run limited by ``--episodes`` instead of
``--seconds`` gives the same weights every time.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np

import paston.env.gymnasium  # noqa: F401  (registers paston/Paston-v0)
from paston import encoding as enc
from paston.encoding import ACTION_COUNT, OBSERVATION_SIZE

FEATURES = OBSERVATION_SIZE + 1  # the observation and a constant 1 (a bias per action)
SCALE = 10.0  # rewards are divided by this while learning (R7 scores run to about ±100)
EVAL_SEED = 1_000_000  # evaluation deals are seeded apart from the training deals
CARD_FEATURES = 10  # the hand-made features of a card to play (see card_features)
DISCARDS = 45  # actions 45–540 discard a pair of cards
PAIRS = np.zeros((ACTION_COUNT, 2), int)  # the two cards of each discard action
for lo in range(32):
    for hi in range(lo + 1, 32):
        PAIRS[enc.discard_index(lo, hi)] = lo, hi


def card_features(x: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Hand-made features of playing each card of ``cards`` (card indices, suit·8 + rank)
    in observation ``x``, one row per card. They are shared by all 32 cards, so what the
    agent learns about, say, winning the trick holds for every card at once.

    Card ``c`` is suit ``c // 8`` (♠ ♣ ♦ ♥), rank ``c % 8`` (7 … A); seats are relative
    (0 is the agent). The blocks are those of docs/ENCODING.md.
    """
    suit, rank = cards // 8, cards % 8
    trump = int(x[enc.CONTRACT : enc.CONTRACT + 5].argmax()) % 4  # best spades: spades
    trick = x[enc.TRICK : enc.TRICK + 96].reshape(3, 32)  # the trick in progress, per seat
    leading = not trick.any()
    known = x[enc.HAND : enc.HAND + 32] + x[enc.PLAYED : enc.PLAYED + 96].reshape(3, 32).sum(0)
    # master: every higher card of its suit is in the hand or already played
    higher_known = [known[c + 1 : (c // 8 + 1) * 8].all() for c in cards]
    wins = cheapest_win = np.zeros(len(cards))
    partner_winning = 0.0
    if not leading:
        led = trick[int(x[enc.LEADER : enc.LEADER + 3].argmax())].argmax() // 8

        def strength(c: np.ndarray) -> np.ndarray:  # R6.3: trumps, then the suit led, then rank
            return np.asarray((c // 8 == trump) * 100 + (c // 8 == led) * 10 + c % 8)

        seats, played = trick.nonzero()
        best = int(strength(played).argmax())  # the card winning the trick so far
        wins = (strength(cards) > strength(played[best])).astype(float)
        if wins.any():  # the lowest of the cards that would win
            cheapest_win = (strength(cards) == strength(cards[wins > 0]).min()).astype(float)
        b_seat = seats[best]
        declarer = int(x[enc.DECLARER : enc.DECLARER + 3].argmax())
        partner_winning = float(declarer != 0 and b_seat != declarer)
    is_declarer = x[enc.DECLARER]
    return np.column_stack(
        [
            cheapest_win,
            rank / 7,
            suit == trump,
            wins,
            wins * partner_winning,  # overtaking the other defender's winning card
            (1 - wins) * rank / 7 * (not leading),  # a high card thrown away
            higher_known,
            leading * np.array(higher_known, float),  # leading a master card
            leading * (suit == trump) * is_declarer,  # the declarer drawing trumps
            leading * rank / 7,
        ]
    ).astype(np.float64)


class LinearSoftmaxAgent:
    """A softmax policy and a value baseline, both linear.

    The preference of action ``a`` in observation ``x`` is ``W[a] · x``, plus
    ``theta · card_features(x, a)`` when ``a`` plays a card, or ``(U[c1] + U[c2]) · x`` when
    it discards cards ``c1`` and ``c2`` (32 weight vectors learn the 496 discards).
    """

    def __init__(self) -> None:
        self.W = np.zeros((ACTION_COUNT, FEATURES))  # one weight vector per action
        self.theta = np.zeros(CARD_FEATURES)  # shared by all the cards
        self.U = np.zeros((32, FEATURES))  # one weight vector per card to discard
        self.v = np.zeros(FEATURES)  # value baseline, in units of SCALE points

    @staticmethod
    def features(obs: dict[str, Any]) -> np.ndarray:
        """The observation with a 1 appended."""
        return np.append(obs["observation"].astype(np.float64), 1.0)

    def policy(self, x: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """The probabilities of the legal actions (in the order of ``legal``), and the card
        features when the legal actions are card plays (else ``None``)."""
        prefs = self.W[legal] @ x
        phi = card_features(x, legal) if legal[-1] < 32 else None  # 0–31: play a card
        if phi is not None:
            prefs += phi @ self.theta
        elif legal[0] >= DISCARDS:  # a discard: the sum of its two cards' preferences
            prefs += (self.U @ x)[PAIRS[legal]].sum(axis=1)
        prefs -= prefs.max()  # numerically safe softmax
        p = np.exp(prefs)
        return p / p.sum(), phi

    def act(self, obs: dict[str, Any], rng: np.random.Generator, *, greedy: bool = False) -> int:
        """An action index: drawn from the policy, or its most probable legal action."""
        legal = obs["action_mask"].nonzero()[0]
        p, _ = self.policy(self.features(obs), legal)
        return int(legal[p.argmax()] if greedy else rng.choice(legal, p=p))

    def learn(
        self, steps: list[tuple[np.ndarray, np.ndarray, int]], score: float, lr: float, entropy: float
    ) -> None:
        """One REINFORCE update from one deal: ``steps`` are (x, legal actions, chosen
        position among them), ``score`` the deal's R7 points for the agent; ``entropy``
        weighs a bonus that keeps the policy from becoming certain too early."""
        g = score / SCALE  # every choice of a deal gets the deal's score (no discount)
        for x, legal, chosen in steps:
            advantage = g - self.v @ x  # better or worse than expected from here
            self.v += lr * advantage * x  # value: least-squares step towards g
            p, phi = self.policy(x, legal)
            grad = -p  # d log p[chosen] / d preference of each legal action ...
            grad[chosen] += 1.0  # ... is onehot(chosen) − p
            log_p = np.log(p + 1e-12)
            # the step for each legal action's preference: REINFORCE, plus the gradient of
            # the policy's entropy −Σ p log p, which is −p (log p + H)
            step = advantage * grad - entropy * p * (log_p - p @ log_p)
            self.W[legal] += lr * np.outer(step, x)
            if phi is not None:
                self.theta += lr * (step @ phi)
            elif legal[0] >= DISCARDS:  # each card of a pair gets the pair's step
                per_card = np.bincount(PAIRS[legal].ravel(), np.repeat(step, 2), minlength=32)
                self.U += lr * np.outer(per_card, x)

    def save(self, path: str) -> None:
        """Write the weights to an ``.npz`` file."""
        np.savez(path, W=self.W, theta=self.theta, U=self.U, v=self.v)

    @classmethod
    def load(cls, path: str) -> LinearSoftmaxAgent:
        """Read weights written by :meth:`save`."""
        agent = cls()
        with np.load(path) as data:
            agent.W, agent.theta, agent.U, agent.v = (data[k] for k in ("W", "theta", "U", "v"))
        return agent


def train(env: gymnasium.Env[Any, Any], agent: LinearSoftmaxAgent, args: argparse.Namespace) -> int:
    """Play and learn until the time or the episode budget is spent; the episodes played."""
    rng = np.random.default_rng(args.seed)
    start = time.monotonic()
    episode, recent = 0, []
    while episode < args.episodes and time.monotonic() - start < args.seconds:
        obs, _ = env.reset(seed=args.seed + episode)
        steps, score, done = [], 0.0, not obs["action_mask"].any()
        while not done:
            x, legal = agent.features(obs), obs["action_mask"].nonzero()[0]
            action = int(rng.choice(legal, p=agent.policy(x, legal)[0]))
            steps.append((x, legal, int(np.searchsorted(legal, action))))
            obs, reward, done, _, _ = env.step(action)
            score += float(reward)
        agent.learn(steps, score, args.lr, args.entropy)
        episode += 1
        recent.append(score)
        if episode % args.report_every == 0:
            print(f"episode {episode}: mean score of the last {len(recent)} deals {np.mean(recent):+.2f}")
            recent = []
    return episode


def play(env: gymnasium.Env[Any, Any], choose: Any, deals: int) -> np.ndarray:
    """The agent's score in each of ``deals`` evaluation deals; ``choose(obs, rng)`` picks
    an action. Deal ``i`` is seeded ``EVAL_SEED + i``, whoever plays it."""
    scores = np.zeros(deals)
    for i in range(deals):
        rng = np.random.default_rng(EVAL_SEED + i)
        obs, _ = env.reset(seed=EVAL_SEED + i)
        done = not obs["action_mask"].any()
        while not done:
            obs, reward, done, _, _ = env.step(choose(obs, rng))
            scores[i] += float(reward)
    return scores


def bootstrap_ci(diff: np.ndarray, rng: np.random.Generator, resamples: int = 2000) -> tuple[float, float]:
    """A 95% percentile bootstrap interval of the mean of ``diff``."""
    means = diff[rng.integers(0, len(diff), (resamples, len(diff)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def random_choice(obs: dict[str, Any], rng: np.random.Generator) -> int:
    """The random agent: a legal action, uniformly."""
    return int(rng.choice(obs["action_mask"].nonzero()[0]))


def main(argv: list[str] | None = None) -> None:
    """Train (or load), evaluate against random on the same deals, print the result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponents", default="heuristic", help="the two computer players")
    parser.add_argument("--seconds", type=float, default=180.0, help="training time")
    parser.add_argument("--episodes", type=int, default=10**9, help="at most this many training deals")
    parser.add_argument("--lr", type=float, default=0.01, help="learning rate")
    parser.add_argument("--entropy", type=float, default=0.05, help="weight of the entropy bonus")
    parser.add_argument("--eval-deals", type=int, default=2000, help="deals of the paired evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--report-every", type=int, default=5000, help="print training progress")
    parser.add_argument("--save", metavar="FILE", help="write the trained weights (.npz)")
    parser.add_argument("--load", metavar="FILE", help="start from saved weights")
    args = parser.parse_args(argv)

    env = gymnasium.make("paston/Paston-v0", opponents=args.opponents)
    agent = LinearSoftmaxAgent.load(args.load) if args.load else LinearSoftmaxAgent()
    begin = time.monotonic()
    episodes = train(env, agent, args)
    print(f"trained on {episodes} deals in {time.monotonic() - begin:.0f} s against {args.opponents}")
    if args.save:
        agent.save(args.save)
        print(f"weights saved to {args.save}")

    trained = play(env, lambda obs, rng: agent.act(obs, rng, greedy=True), args.eval_deals)
    rand = play(env, random_choice, args.eval_deals)
    low, high = bootstrap_ci(trained - rand, np.random.default_rng(args.seed))
    print(f"evaluation on {args.eval_deals} deals (same deals, seat and opponents for both):")
    print(f"trained: {trained.mean():+.2f} points per deal")
    print(f"random: {rand.mean():+.2f} points per deal")
    print(
        f"trained − random: {(trained - rand).mean():+.2f} points per deal, 95% CI [{low:+.2f}, {high:+.2f}]"
    )


if __name__ == "__main__":
    main()
