"""The course of the Learn page: curated deals, each teaching one idea (when to bid,
when to pass, whist, the lone defender, counting tricks, leading trumps, the prikup and
the discard, the all-pass deal, surrender). A lesson is data: its id (the client's
strings are ``lesson_<id>_title`` and ``lesson_<id>_idea``), the deal (each seat's hand,
the prikup and the dealer; the learner always sits on seat 0), the seed key of its
table's computer players (:func:`paston.server.lessons.rehearse.bot_seed`) and the goal
the learner reaches by following the advice (checked by ``tests/test_lessons.py``).

>>> [lesson.id for lesson in LESSONS][:3]
['bid', 'pass', 'ladder']
>>> deck = LESSONS[0].deck()
>>> len(deck), len(set(deck))
(32, 32)
>>> lesson_by_id("nope") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from paston.cards import SEVEN_OF_SPADES, CardSet
from paston.dealing import PRIKUP_POSITIONS, check_deck, hand_positions

#: What the learner achieves by following the advice: makes the contract as declarer
#: (``make``), takes their defender's quota against a declarer who fails (``beat``),
#: stays out of a deal the declarer makes (``stay-out``), or surrenders a hopeless
#: contract for the smallest loss (``surrender``).
Goal = Literal["make", "beat", "stay-out", "surrender"]


@dataclass(frozen=True)
class Lesson:
    """One curated deal of the course."""

    id: str
    idea: str  # the idea taught, in a few words (the client's text: lesson_<id>_idea)
    goal: Goal
    dealer: int
    hands: tuple[str, str, str]  # by seat; the learner holds seat 0
    prikup: str
    bots: str  # the seed key of the table's computer players

    def deck(self) -> list[int]:
        """The deck that deals these hands (R1.3) with the lesson's dealer; the dealer's
        cards are placed so that the bottom card is never 7♠ (R1.2)."""
        deck = [-1] * 32
        for seat, text in enumerate(self.hands):
            cards = [int(c) for c in CardSet.parse(text)]
            if seat == self.dealer and SEVEN_OF_SPADES in cards:  # not at the bottom
                cards.remove(SEVEN_OF_SPADES)
                cards.insert(0, SEVEN_OF_SPADES)
            for position, card in zip(hand_positions(seat, self.dealer), cards, strict=True):
                deck[position] = card
        for position, prikup_card in zip(PRIKUP_POSITIONS, CardSet.parse(self.prikup), strict=True):
            deck[position] = int(prikup_card)
        return list(check_deck(deck))

    def to_dict(self, number: int) -> dict[str, Any]:
        """What the Learn page lists (the deal itself stays at the server until dealt)."""
        return {"id": self.id, "number": number, "idea": self.idea, "goal": self.goal}


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "bid",
        "bid with a long suit and high cards",
        "make",
        2,
        ("AS JS TS 8S QC 8C 7C QD TD 8D", "KS QS AC KC JC AD QH TH 8H 7H", "9S 7S 9C KD JD 9D 7D AH KH JH"),
        "TC 9H",
        "s115",
    ),
    Lesson(
        "pass",
        "pass a weak hand, and stay out",
        "stay-out",
        1,
        ("KC QC 9C 8C 7C JD 9D 7D JH TH", "AS KS JS TS TC KD QD AH KH QH", "QS 9S 8S 7S AC AD TD 9H 8H 7H"),
        "JC 8D",
        "s130",
    ),
    Lesson(
        "ladder",
        "climb the ladder over a bid",
        "make",
        1,
        ("9C AD JD TD 9D 7D AH KH QH JH", "JS AC KC QC 8C KD QD 8D 8H 7H", "AS KS QS TS 9S 8S TC 7C TH 9H"),
        "7S JC",
        "s276",
    ),
    Lesson(
        "discard",
        "the prikup and a good discard",
        "make",
        1,
        ("KS 9S 8S TC KD JD 9D 8D 7D 7H", "QS 7S KC JC 8C AD AH QH TH 9H", "JS TS AC QC 9C 7C QD KH JH 8H"),
        "AS TD",
        "s105",
    ),
    Lesson(
        "trumps",
        "lead trumps first",
        "make",
        0,
        ("AS KS QS JS 9S 7S KC JC 8D 7H", "TS 8S TC 8C 7C AD QD JD AH JH", "AC QC 9C KD TD 9D 7D KH TH 9H"),
        "QH 8H",
        "s123",
    ),
    Lesson(
        "count",
        "count your tricks: six are enough",
        "make",
        2,
        ("AS KS JS 8S 7S QC 8C 9D KH QH", "9S AC AD KD JD 8D AH JH 9H 7H", "QS TS KC JC TC 9C 7C 7D TH 8H"),
        "QD TD",
        "s102",
    ),
    Lesson(
        "whist",
        "whist with your partner in defence",
        "beat",
        1,
        ("AS 9S 8S KC TC 7C QD 7D KH 8H", "7S AC 9C 8C KD 8D AH JH 9H 7H", "KS QS JS TS QC JD TD 9D QH TH"),
        "JC AD",
        "s146",
    ),
    Lesson(
        "lone",
        "the lone defender needs four tricks",
        "beat",
        0,
        ("KS TS 7S KC JC JD TD 9D QH TH", "AS QS TC 9C 8C 7C KD KH JH 8H", "JS 9S 8S AC QC QD 8D 7D AH 9H"),
        "AD 7H",
        "s161",
    ),
    Lesson(
        "allpass",
        "everyone passed: the jack of spades declares",
        "make",
        0,
        ("QS JS 9S AC KC TD 9D 8D AH TH", "KS 8S TC 8C 7C AD KD JD KH 7H", "TS 7S QC JC 9C QD 7D QH JH 8H"),
        "AS 9H",
        "s139",
    ),
    Lesson(
        "surrender",
        "a hopeless hand: surrender",
        "surrender",
        1,
        ("QS JC TC 8C AD JD 9D KH JH 7H", "KS JS 9S 7S KD QD TD 8D QH TH", "AS TS 8S AC KC QC 9C 7C AH 9H"),
        "7D 8H",
        "s206",
    ),
)

_BY_ID = {lesson.id: lesson for lesson in LESSONS}


def lesson_by_id(lesson_id: str) -> Lesson | None:
    """The lesson with this id, or ``None``."""
    return _BY_ID.get(lesson_id)


def course() -> list[dict[str, Any]]:
    """The course as the Learn page lists it (``GET /api/lessons``), in order."""
    return [lesson.to_dict(i + 1) for i, lesson in enumerate(LESSONS)]
