"""The phases of a deal, in the order they are played, with the rule each one follows.

>>> Phase.TRUMP.rule, Phase.TRUMP.duty
('R4.2', 'the declarer must name trump or surrender')
>>> Phase.OVER > Phase.PLAY
True
"""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    """Where a deal stands."""

    AUCTION = 0
    DISCARD = 1
    TRUMP = 2
    DEFENCE = 3
    PLAY = 4
    OVER = 5
    REDEAL = 6

    @property
    def rule(self) -> str:
        """The rule that governs the actions of this phase."""
        return _PHASE_RULES[self][0]

    @property
    def duty(self) -> str:
        """What the seat to move must do in this phase, in words."""
        return _PHASE_RULES[self][1]


_PHASE_RULES = {
    Phase.AUCTION: ("R3.2", "the auction is on: bid or pass"),
    Phase.DISCARD: ("R4.1", "the declarer must discard two cards"),
    Phase.TRUMP: ("R4.2", "the declarer must name trump or surrender"),
    Phase.DEFENCE: ("R5.1", "the opponent must say whist or pass"),
    Phase.PLAY: ("R6.2", "a card must be played"),
    Phase.OVER: ("R6.3", "the deal is over"),
    Phase.REDEAL: ("R1.6", "the deal is void and dealt again"),
}
