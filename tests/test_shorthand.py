"""``paston.shorthand``: what a person types, read as an action of the current phase."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paston.actions import Action, Kind
from paston.cards import Card
from paston.deal import Deal, Phase
from paston.errors import ParseError
from paston.shorthand import parse_typed
from paston.views import DealView


def views_of_a_deal(seed: int) -> Iterator[DealView]:
    """The view of the seat to move before every action of a random deal."""
    rng = random.Random(seed)
    deal = Deal.random(rng, dealer=seed % 3)
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        yield deal.view(seat)
        deal.apply(rng.choice(deal.legal_actions()), seat)


def some_views(seed: int) -> list[DealView]:
    out: list[DealView] = []
    s = seed
    while not any(v.phase is Phase.PLAY for v in out):  # a deal with every phase
        out.extend(views_of_a_deal(s))
        s += 1000
    return out


def first_view(phase: Phase) -> DealView:
    for seed in range(200):
        for view in views_of_a_deal(seed):
            if view.phase is phase:
                return view
    raise AssertionError(f"no {phase.name} view in 200 deals")


# --- every legal action reads back as itself ----------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_every_legal_action_reads_back_in_every_phase(seed: int) -> None:
    for view in some_views(seed):
        legal = view.legal_actions
        for k, action in enumerate(legal):
            assert parse_typed(str(action), view) is action
            assert parse_typed(action.pretty(), view) is action
            assert parse_typed(action.pretty().upper(), view) is action
            assert parse_typed(str(k + 1), view, choices=legal) is action
            if action.kind is Kind.PLAY:
                assert parse_typed(action.pretty().removeprefix("play "), view) is action
            if action.kind in (Kind.BID, Kind.TRUMP):
                assert action.contract is not None
                assert parse_typed(action.contract.name_in_record, view) is action
                assert parse_typed(action.contract.word, view) is action
                assert parse_typed(action.contract.pretty(), view) is action
            if action.kind is Kind.DISCARD:
                shown = list(view.hand)
                a, b = (shown.index(c) + 1 for c in action.cards)
                assert parse_typed(f"{a} {b}", view) is action
                assert parse_typed(f"{b}, {a}", view, cards=shown) is action
                assert parse_typed(f"{action.cards[1]} {a}", view) is action


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.data())
def test_numbers_pick_the_listed_choices(seed: int, data: st.DataObject) -> None:
    for view in some_views(seed)[:12]:
        if view.phase is Phase.DISCARD:
            continue
        choices = data.draw(st.lists(st.sampled_from(list(view.legal_actions)), min_size=1, max_size=5))
        for k, action in enumerate(choices, start=1):
            assert parse_typed(str(k), view, choices=choices) is action
            assert parse_typed(f" +{k} ", view, choices=choices) is action
        for wrong in (0, -1, len(choices) + 1, 10**7):
            with pytest.raises(ParseError, match=f"choose a number from 1 to {len(choices)}"):
                parse_typed(str(wrong), view, choices=choices)


# --- junk is a ParseError, never anything else ---------------------------------------------------
VIEWS = [first_view(p) for p in (Phase.AUCTION, Phase.DISCARD, Phase.TRUMP, Phase.DEFENCE, Phase.PLAY)]
JUNK_WORDS = st.sampled_from(
    [
        "bid",
        "play",
        "discard",
        "trump",
        "pass",
        "(",
        ")",
        "♠★",
        "10",
        "²",
        "٣",
        "-",
        "+",
        "1",
        "99",
        "AH",
        "d8",
        "gupa",
        "(♣)",
        "(♥)",
        "7D",
    ]
)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(VIEWS),
    st.one_of(st.text(max_size=30), st.lists(JUNK_WORDS, max_size=4).map(" ".join)),
    st.booleans(),
)
def test_junk_raises_parse_error_and_nothing_else(view: DealView, text: str, numbered: bool) -> None:
    try:
        action = parse_typed(text, view, choices=view.legal_actions if numbered else None)
    except ParseError:
        return
    assert isinstance(action, Action)


EDGES = ["", "   ", ",", "9" * 5000, "-0", "²", "1 2 3", "bid", "play", "discard 7D", "gupa (♣)"]


@pytest.mark.parametrize("text", EDGES)
@pytest.mark.parametrize("view", VIEWS, ids=lambda v: v.phase.name)
def test_edge_cases_are_parse_errors(view: DealView, text: str) -> None:
    with pytest.raises(ParseError):
        parse_typed(text, view, choices=view.legal_actions)


def test_not_text_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="not text"):
        parse_typed(None, VIEWS[0])  # type: ignore[arg-type]


# --- the messages say what to type ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("phase", "text", "message"),
    [
        (Phase.PLAY, "d8", "write the rank before the suit, e.g. '8D' for 8♦"),
        (Phase.PLAY, "♥10", "write the rank before the suit, e.g. 'TH' for 10♥"),
        (Phase.PLAY, "8 d", "write a card as one word, e.g. '8D' for 8♦"),
        (Phase.PLAY, "xyz", "a card is a rank (7 8 9 10 J Q K A) then a suit"),
        (Phase.AUCTION, "-1", "choose a number from 1 to"),
        (Phase.AUCTION, "notrump", "cannot parse contract 'notrump'"),
        (Phase.AUCTION, "bid", "say what to bid, e.g. 'bid spades'"),
        (Phase.DEFENCE, "maybe", "say whist or pass"),
        (Phase.DISCARD, "1", "give exactly two cards to discard"),
        (Phase.DISCARD, "1 99", "choose numbers from 1 to 12"),
        (Phase.DISCARD, "3 3", "a discard needs two different cards"),
        (Phase.DISCARD, "ZZ 1", "cannot parse card 'ZZ'"),
        (Phase.AUCTION, "pass now", "pass takes nothing after it"),
    ],
)
def test_messages_say_what_to_type(phase: Phase, text: str, message: str) -> None:
    view = VIEWS[[v.phase for v in VIEWS].index(phase)]
    choices = None if phase is Phase.DISCARD else view.legal_actions  # as the terminal lists them
    with pytest.raises(ParseError) as err:
        parse_typed(text, view, choices=choices)
    assert message in str(err.value)
    assert "expected pass, bid CONTRACT" not in str(err.value)


def test_the_phase_decides_what_a_contract_means() -> None:
    auction, trump = VIEWS[0], VIEWS[2]
    assert parse_typed("clubs", auction) is Action.parse("bid clubs")
    assert parse_typed("clubs", trump) is Action.parse("trump clubs")
    assert parse_typed("Paston Grkha", trump) is Action.parse("trump best-spades")


def test_actions_of_other_phases_are_read_for_the_rules_to_refuse() -> None:
    auction, play = VIEWS[0], VIEWS[4]
    assert parse_typed("surrender", auction) is Action.parse("surrender")
    assert parse_typed("bid hearts", play) is Action.parse("bid hearts")
    assert parse_typed("pass", VIEWS[1]) is Action.parse("pass")  # at the discard


def test_discard_numbers_follow_the_cards_shown() -> None:
    view = VIEWS[1]
    shown = sorted(view.hand, key=lambda c: c.index)
    assert parse_typed("1 2", view, cards=shown) is Action.discard(shown[0], shown[1])
    assert parse_typed("discard 1 2", view, cards=shown) is Action.discard(shown[0], shown[1])
    assert parse_typed(f"{shown[0]} 2", view, cards=shown) is Action.discard(shown[0], shown[1])
    assert isinstance(shown[0], Card)
