"""Evaluation of computer players: duplicate tournaments with confidence intervals."""

from paston.eval.stats import BotSummary, bootstrap_ci, summarize
from paston.eval.tournament import (
    ARRANGEMENT_COUNT,
    DealResultRow,
    arrangements,
    play_duplicate_deal,
    run_tournament,
)

__all__ = [
    "ARRANGEMENT_COUNT",
    "BotSummary",
    "DealResultRow",
    "arrangements",
    "bootstrap_ci",
    "play_duplicate_deal",
    "run_tournament",
    "summarize",
]
