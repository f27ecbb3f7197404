"""The Learn page's course (paston.server.lessons): every curated lesson, played with
the hint's choice for the learner and the lesson table's seeded computer players,
reaches the lesson's goal and shows the idea it teaches; the decks are real deals."""

from __future__ import annotations

import pytest

from paston.actions import Action, Kind
from paston.contracts import Contract
from paston.dealing import deal_cards
from paston.result import Outcome
from paston.server.lessons.course import LESSONS, Lesson, course, lesson_by_id
from paston.server.lessons.rehearse import LEARNER, Rehearsal, rehearse

TRUMP_SUIT = {c: c.trump_suit for c in Contract}


def first_card(played: Rehearsal) -> Action:
    return next(a for a in played.learner() if a.kind is Kind.PLAY)


# the idea of each lesson, seen in what the learner did when following the advice
IDEAS = {
    "bid": lambda p: p.learner()[0] == Action.parse("bid spades") and len(p.result.defenders) == 2,
    "pass": lambda p: [str(a) for a in p.learner()] == ["pass", "pass"],
    "ladder": lambda p: any(a.kind is Kind.BID and a.contract is not Contract.SPADES for a in p.learner()),
    "discard": lambda p: any(a.kind is Kind.DISCARD for a in p.learner()),
    "trumps": lambda p: first_card(p).cards[0].suit == TRUMP_SUIT[p.result.contract],
    "count": lambda p: p.result.tricks[LEARNER] == 6 and len(p.result.defenders) == 1,
    "whist": lambda p: Action.parse("whist") in p.learner() and len(p.result.defenders) == 2,
    "lone": lambda p: Action.parse("whist") in p.learner() and p.result.defenders == (LEARNER,),
    "allpass": lambda p: p.learner()[0] == Action.parse("pass") and p.result.declarer == LEARNER,
    "surrender": lambda p: p.learner()[-1] == Action.parse("surrender"),
}


def goal_reached(lesson: Lesson, played: Rehearsal) -> bool:
    result = played.result
    assert result is not None, "the lesson's deal must not be redealt"
    declarer_made = result.outcome is Outcome.PLAYED and result.tricks[result.declarer] >= 6
    if lesson.goal == "make":
        return result.declarer == LEARNER and declarer_made
    if lesson.goal == "beat":
        return LEARNER in result.defenders and not declarer_made and result.scores[LEARNER] >= 0
    if lesson.goal == "stay-out":
        return result.declarer != LEARNER and LEARNER not in result.defenders and result.scores[LEARNER] == 0
    return result.declarer == LEARNER and result.outcome is Outcome.SURRENDER


def test_the_rehearsal_asks_for_hints_as_the_tables_do() -> None:
    from paston.server.lessons import rehearse as r
    from paston.server.tables import hints

    assert (r.HINT_SEED, r.HINT_LEVEL) == (hints.HINT_SEED, hints.DEFAULT_LEVEL)


def test_the_course_has_eight_to_twelve_lessons_each_on_its_own_deal() -> None:
    assert 8 <= len(LESSONS) <= 12
    assert len({lesson.id for lesson in LESSONS}) == len(LESSONS) == len(IDEAS)
    assert len({tuple(lesson.deck()) for lesson in LESSONS}) == len(LESSONS)
    assert [c["id"] for c in course()] == [lesson.id for lesson in LESSONS]
    assert all(lesson_by_id(lesson.id) is lesson for lesson in LESSONS)


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_the_lesson_deals_its_hands(lesson: Lesson) -> None:
    hands, prikup = deal_cards(lesson.deck(), lesson.dealer)
    from paston.cards import CardSet

    assert [str(CardSet(h)) for h in hands] == [str(CardSet.parse(h)) for h in lesson.hands]
    assert CardSet(prikup) == CardSet.parse(lesson.prikup)


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_following_the_hint_reaches_the_lesson_s_goal(lesson: Lesson) -> None:
    played = rehearse(lesson)
    assert goal_reached(lesson, played), (lesson.id, [str(a) for a in played.learner()], played.result)
    assert IDEAS[lesson.id](played), (lesson.id, [str(a) for a in played.learner()])
    assert rehearse(lesson) == played  # the same every time: the table's seeds are fixed


def test_the_surrender_lesson_s_alternative_costs_more() -> None:
    """Naming trump instead of surrendering (the hint's best other choice), the learner
    loses more than the surrender's 10."""
    lesson = lesson_by_id("surrender")
    assert lesson is not None
    from paston.bots.explain import explain
    from paston.server.lessons.rehearse import HINT_LEVEL, HINT_SEED
    from paston.server.work.botjobs import decision_seed

    def no_surrender(view, version):  # type: ignore[no-untyped-def]
        hint = explain(view, level=HINT_LEVEL, seed=decision_seed(HINT_SEED, version))
        return next(o.action for o in hint.options if o.action != Action.parse("surrender"))

    played = rehearse(lesson, learner=no_surrender)
    assert played.result is not None and played.result.scores[LEARNER] < -10, played.result
