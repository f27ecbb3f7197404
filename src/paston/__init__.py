"""Paston: the rules engine of the Armenian three-player card game.

>>> import random
>>> from paston import Deal, Action
>>> deal = Deal.random(random.Random(0), dealer=0)
>>> deal.legal_actions()[0]
Action.parse('pass')
"""

from paston.actions import Action, Event, Kind
from paston.cards import Card, CardSet
from paston.contracts import Contract
from paston.deal import Deal, Phase, Trick
from paston.errors import IllegalActionError, ParseError, PastonError, RecordError, RulesError
from paston.match import Match
from paston.result import DealResult, Outcome, Redeal
from paston.rules import PRESETS, Rules
from paston.views import DealView, ViewEvent

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "Action",
    "Card",
    "CardSet",
    "Contract",
    "Deal",
    "DealResult",
    "DealView",
    "Event",
    "IllegalActionError",
    "Kind",
    "Match",
    "Outcome",
    "ParseError",
    "PastonError",
    "Phase",
    "RecordError",
    "Redeal",
    "Rules",
    "RulesError",
    "Trick",
    "ViewEvent",
]
