"""The analysis of one finished deal: every card and every decision against perfect play
and against the computer player, as plain JSON.

- Each card played: the tricks it cost (double-dummy, declarer against cooperating
  defenders) and the points it cost (max^n with the scores of R7: every active player
  maximises their own deal score), the best cards, and what ``pimc`` would have played
  from that seat's view (:meth:`Deal.view`, never the full deal).
- Each bid, discard, trump and whist decision with a real choice: the options with the
  computer player's expected score (:func:`paston.bots.explain.explain`, from the seat's
  view), the action chosen and the computer player's own choice.
- Points lost per seat, and the biggest mistakes first.

The bot's seeds come from ``seed`` and the action's index, so the same deal, level and
seed always give the same analysis, wherever it is computed.

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(4), dealer=0)
>>> while not deal.is_over:
...     _ = deal.apply(deal.legal_actions()[0])
>>> a = analyze_deal(deal, 0, level=1, solver=Solver(memory_mb=4))
>>> sorted(a), len(a["cards"]), a["cards"][0]["card"]
(['cards', 'deal', 'decisions', 'level', 'mistakes', 'totals'], 30, '9C')
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from paston.actions import Action, Kind
from paston.bots.explain import explain
from paston.bots.pimc import DEFAULT_LEVEL, LEVELS, PimcPlayer
from paston.deal import Deal, Phase
from paston.solver import MAXN_MIN_MEMORY_MB, Solver
from paston.solver.card_costs import PlayedCard
from paston.solver.card_costs import analyze_deal as analyze_play
from paston.views import DealView

#: The phase names of the decisions (the JSON's ``phase``).
PHASE_NAMES = {
    Phase.AUCTION: "bid",
    Phase.DISCARD: "discard",
    Phase.TRUMP: "trump",
    Phase.DEFENCE: "whist",
}

Progress = Callable[[int, int], None]


class AnalysisError(ValueError):
    """A deal that cannot be analysed (not finished); ``code`` names the problem."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def action_seed(seed: int, index: int) -> int:
    """The computer player's seed for the action at ``index`` of the deal.

    >>> action_seed(0, 3) == action_seed(0, 3) != action_seed(0, 4)
    True
    """
    digest = hashlib.sha256(f"paston-analysis:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def action_text(action: Action) -> str:
    """An action as the analysis names it: a card's code, otherwise its record text
    (``AH``, ``pass``, ``bid clubs``, ``discard JS QS``, ``trump hearts``, ``whist``)."""
    if action.kind is Kind.PLAY:
        return str(action.cards[0])
    return str(action)


def bot_card(view: DealView, index: int, *, level: int, seed: int, solver: Solver) -> Action:
    """What ``pimc`` plays from ``view`` (the seat's view, never the deal) as the action at
    ``index`` of the deal: its seed comes from ``seed`` and the index."""
    if len(view.legal_actions) == 1:
        return view.legal_actions[0]
    return PimcPlayer(seed=action_seed(seed, index), level=level, solver=solver).choose(view)


def _card_row(c: PlayedCard, bot: Action) -> dict[str, Any]:
    return {
        "index": c.index,
        "seat": c.seat,
        "card": str(c.card),
        "cost_tricks": c.cost,
        "cost_points": c.cost_points,
        "best": [str(b) for b in c.best_cards],
        "bot": action_text(bot),
    }


def _decision_row(
    state: Deal, index: int, seat: int, chosen: Action, level: int, seed: int, solver: Solver
) -> tuple[dict[str, Any], float]:
    """One decision's row, and the expected points the choice gave up (0 when the
    chosen action is the best option or has no score)."""
    hint = explain(state.view(seat), level=level, seed=action_seed(seed, index), solver=solver)
    scores = {action_text(o.action): round(float(o.score), 2) for o in hint.options}
    options = [{"action": a, "score": v} for a, v in scores.items()]
    mine = scores.get(action_text(chosen))
    # a choice the player did not consider (a discard outside its candidates) has no score
    lost = max(0.0, max(scores.values()) - mine) if mine is not None and scores else 0.0
    bot = hint.chosen
    row = {
        "index": index,
        "seat": seat,
        "phase": PHASE_NAMES[state.phase],
        "chosen": action_text(chosen),
        "options": options,
        "bot": action_text(bot),
    }
    return row, round(lost, 2)


def analyze_deal(
    played: Deal,
    deal_index: int,
    *,
    level: int = DEFAULT_LEVEL,
    seed: int = 0,
    solver: Solver | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The analysis of a finished deal (``deal_index``: its index in the game's deals).

    ``progress(done, total)`` is called after each action analysed. Raises
    :class:`AnalysisError` for a deal that is not over."""
    if level not in LEVELS:
        raise AnalysisError("bad-level", f"the level must be 1 to 5, not {level!r}")
    if not played.is_over:
        raise AnalysisError("deal-not-finished", f"deal {deal_index} is not finished")
    solver = solver or Solver(memory_mb=max(32, MAXN_MIN_MEMORY_MB))
    events = played.events
    has_play = any(e.action.kind is Kind.PLAY for e in events)
    costs: dict[int, PlayedCard] = {}
    if has_play:
        costs = {c.index: c for t in analyze_play(played, deal_index, solver, scores=True).tricks for c in t}
    cards: list[dict[str, Any]] = []
    decisions: list[dict[str, Any]] = []
    lost = [0.0, 0.0, 0.0]
    mistakes: list[dict[str, Any]] = []
    for k, (state, e) in enumerate(played.states()):
        if e is None:
            break
        if progress is not None:
            progress(k, len(events))
        phase = state.phase
        if e.action.kind is Kind.PLAY and phase is Phase.PLAY:
            c = costs[k]
            bot = bot_card(state.view(e.seat), k, level=level, seed=seed, solver=solver)
            cards.append(_card_row(c, bot))
            lost[e.seat] += c.cost_points
            if c.cost_points > 0:
                what = str(c.card)
                mistakes.append({"index": k, "seat": e.seat, "what": what, "cost_points": c.cost_points})
            continue
        if phase not in PHASE_NAMES or len(state.legal_actions()) < 2:
            continue
        row, gave_up = _decision_row(state, k, e.seat, e.action, level, seed, solver)
        decisions.append(row)
        lost[e.seat] += gave_up
        if gave_up > 0:
            mistakes.append({"index": k, "seat": e.seat, "what": row["chosen"], "cost_points": gave_up})
    if progress is not None:
        progress(len(events), len(events))
    mistakes.sort(key=lambda m: (-m["cost_points"], m["index"]))
    return {
        "deal": deal_index,
        "level": level,
        "cards": cards,
        "decisions": decisions,
        "totals": [_number(x) for x in lost],
        "mistakes": mistakes,
    }


def _number(x: float) -> int | float:
    """A whole number as an int (card costs are), else rounded to two places."""
    return int(x) if float(x).is_integer() else round(x, 2)
