"""Bad positions are refused with a clear ``PositionError`` (a ``ValueError`` with a
stable ``code``), never a crash. (The command line, ``paston solve`` and
``paston analyze``, is checked in ``test_solver_cli.py``.)
"""

from __future__ import annotations

import pytest

from paston.cards import Card, CardSet
from paston.contracts import Contract
from paston.deal import Deal, Phase
from paston.errors import PastonError
from paston.solver import Position, PositionError, Solver, reference


def mask(text: str) -> int:
    return CardSet.parse(text).mask


def make(
    hands: tuple[str, str, str],
    *,
    contract: Contract = Contract.SPADES,
    declarer: int = 0,
    defenders: tuple[int, ...] = (1, 2),
    leader: int = 0,
    trick: str = "",
    tricks: tuple[int, int, int] = (0, 0, 0),
) -> Position:
    return Position(
        hands=(mask(hands[0]), mask(hands[1]), mask(hands[2])),
        contract=contract,
        declarer=declarer,
        defenders=defenders,
        leader=leader,
        trick=tuple(Card.parse(c).index for c in trick.split()),
        tricks=tricks,
    )


def refused(code: str, build: object) -> PositionError:
    assert callable(build)
    with pytest.raises(PositionError) as info:
        build()
    err = info.value
    assert isinstance(err, ValueError) and isinstance(err, PastonError)
    assert err.code == code, (err.code, str(err))
    assert str(err) and "Traceback" not in str(err)
    return err


# --- cards --------------------------------------------------------------------------------
def test_duplicate_card_in_two_hands() -> None:
    err = refused("duplicate-card", lambda: make(("AS KS", "AS QS", "JS TS")))
    assert "AS" in str(err)


def test_duplicate_card_in_hand_and_trick() -> None:
    err = refused("duplicate-card", lambda: make(("AS KS", "QS", "JS TS"), leader=1, trick="KS"))
    assert "KS" in str(err)


def test_duplicate_card_twice_in_the_trick() -> None:
    refused(
        "duplicate-card",
        lambda: Position(
            hands=(mask("AS"), mask("QS"), mask("JS TS")),
            contract=Contract.SPADES,
            declarer=0,
            defenders=(1, 2),
            leader=0,
            trick=(Card.parse("KS").index, Card.parse("KS").index),
        ),
    )


def test_duplicate_card_from_text() -> None:
    err = refused(
        "duplicate-card",
        lambda: Position.from_text(hands=["AS KS", "QS KS", ""], trump="spades", declarer=0, leader=0),
    )
    assert "KS" in str(err)


@pytest.mark.parametrize(
    "hands",
    [("AS KS", "QS", "JS TS"), ("AS", "QS JS", "TS 9S"), ("AS KS 7H", "QS JS", "TS 9S")],
)
def test_unequal_hand_sizes(hands: tuple[str, str, str]) -> None:
    err = refused("unequal-hands", lambda: make(hands))
    assert "holds" in str(err)


def test_unequal_hand_sizes_mid_trick() -> None:
    # Seat 0 led; it must hold one card fewer than seats 1 and 2.
    refused("unequal-hands", lambda: make(("KS 7H", "QS 8H", "JS 9H"), trick="AS"))
    refused("unequal-hands", lambda: make(("7H", "QS", "JS 9H"), trick="AS"))
    make(("7H", "QS 8H", "JS 9H"), trick="AS")  # fine


def test_unequal_two_hands() -> None:
    refused("unequal-hands", lambda: make(("AS KS", "QS", ""), defenders=(1,)))


def test_passer_holding_cards() -> None:
    err = refused("passer-cards", lambda: make(("AS KS", "QS JS", "TS 9S"), defenders=(1,)))
    assert "R5.2" in str(err)


def test_no_cards_left() -> None:
    refused("no-cards", lambda: make(("", "", "")))
    refused("no-cards", lambda: make(("", "", ""), defenders=(2,)))


@pytest.mark.parametrize("hand", [-1, 1 << 32, "AS", 1.5, True, None])
def test_hand_not_a_card_mask(hand: object) -> None:
    refused(
        "bad-hands",
        lambda: Position(
            hands=(hand, 2, 4),  # type: ignore[arg-type]
            contract=Contract.SPADES,
            declarer=0,
            defenders=(1, 2),
            leader=0,
        ),
    )


# --- revokes in the trick (R6.2) ----------------------------------------------------------
def test_revoke_off_suit_while_holding_the_led_suit() -> None:
    # Seat 1 played a heart to a spade lead but still holds QS.
    err = refused("revoke", lambda: make(("KS 7D", "QS 8D", "JS TS 9S"), trick="AS 8H"))
    assert "R6.2" in str(err) and "spades" in str(err)


def test_revoke_not_trumping_while_void_and_holding_trump() -> None:
    # Hearts trump; seat 1 has no spade but holds 9H, yet played a diamond.
    err = refused(
        "revoke", lambda: make(("KS 7D", "9H 8D", "JS TS 9S"), contract=Contract.HEARTS, trick="AS TD")
    )
    assert "R6.2" in str(err) and "trump" in str(err)


def test_revoke_by_the_second_defender() -> None:
    # Defender 1 led AS; defender 2 discarded 9C while still holding JS.
    refused("revoke", lambda: make(("KS 7D", "QS", "JS"), leader=1, trick="AS 9C"))
    make(("KS 7D", "QS", "9C"), leader=1, trick="AS JS")  # following suit: fine
    # (with two hands the trick in progress holds the leader's card only: no revoke)


def test_legal_tricks_are_accepted() -> None:
    # Following suit, trumping when void, and discarding when void of both: all legal.
    make(("KS 7D", "QS 8D", "JS TS 9S"), trick="AS 8S")
    make(("KS 7D", "8D 9D", "JS TS 9S"), contract=Contract.DIAMONDS, trick="AS TD")
    make(("KS 7D", "8C 9C", "JS TS 9S"), contract=Contract.HEARTS, trick="AS TC")
    # trumping with best spades' trump (spades): leading a heart, seat 1 void in hearts
    make(("KH 7D", "8S 9C", "JH TH 9H"), contract=Contract.BEST_SPADES, trick="AH 7S")
    refused(
        "revoke", lambda: make(("KH 7D", "8S 9D", "JH TH 9H"), contract=Contract.BEST_SPADES, trick="AH TC")
    )


# --- seats --------------------------------------------------------------------------------
@pytest.mark.parametrize("declarer", [-1, 3, "0", None, 0.5])
def test_bad_declarer(declarer: object) -> None:
    refused("bad-seat", lambda: make(("AS", "KS", "QS"), declarer=declarer))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "defenders",
    [(), (0,), (0, 1), (1, 1), (1, 2, 0), (3,), (1, -1), ("1",)],
)
def test_bad_defenders(defenders: tuple[int, ...]) -> None:
    refused("bad-defenders", lambda: make(("AS", "KS", "QS"), defenders=defenders))


@pytest.mark.parametrize(("leader", "defenders"), [(3, (1, 2)), (-1, (1, 2)), (2, (1,)), (None, (1, 2))])
def test_bad_leader(leader: object, defenders: tuple[int, ...]) -> None:
    hands = ("AS", "KS", "QS") if len(defenders) == 2 else ("AS", "KS", "")
    refused("bad-leader", lambda: make(hands, leader=leader, defenders=defenders))  # type: ignore[arg-type]


# --- the trick and the tricks taken -------------------------------------------------------
def test_trick_too_long() -> None:
    refused("bad-trick", lambda: make(("", "", ""), trick="AS KS QS"))
    refused("bad-trick", lambda: make(("7H", "", ""), defenders=(1,), trick="AS KS"))


@pytest.mark.parametrize("card", [32, -1, "AS", 1.0, None])
def test_bad_card_in_the_trick(card: object) -> None:
    refused(
        "bad-trick",
        lambda: Position(
            hands=(0, mask("KS"), mask("QS")),
            contract=Contract.SPADES,
            declarer=0,
            defenders=(1, 2),
            leader=0,
            trick=(card,),  # type: ignore[arg-type]
        ),
    )


def test_tricks_taken_plus_cards_left_over_ten() -> None:
    refused("bad-tricks", lambda: make(("AS", "KS", "QS"), tricks=(5, 4, 1)))
    refused("bad-tricks", lambda: make(("AS KS", "QS JS", "TS 9S"), tricks=(9, 0, 0)))
    make(("AS", "KS", "QS"), tricks=(5, 3, 1))  # exactly 10: fine


@pytest.mark.parametrize("tricks", [(-1, 0, 0), (0, 0), (0, 0, 0, 0), (1.0, 0, 0), ("1", 0, 0)])
def test_bad_tricks_taken(tricks: tuple[int, ...]) -> None:
    refused("bad-tricks", lambda: make(("AS", "KS", "QS"), tricks=tricks))  # type: ignore[arg-type]


def test_passer_with_tricks_taken() -> None:
    refused("bad-tricks", lambda: make(("AS", "KS", ""), defenders=(1,), tricks=(3, 3, 1)))


# --- contracts and text -----------------------------------------------------------------------
@pytest.mark.parametrize("trump", [4, -1, 7, None, 1.5, True])
def test_bad_trump_value(trump: object) -> None:
    refused(
        "bad-trump",
        lambda: Position.from_text(hands=["AS", "KS", ""], trump=trump, declarer=0, leader=0),  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("trump", ["notrump", "", "spade", "NT", "xx"])
def test_bad_trump_text(trump: str) -> None:
    # A clear, typed error with a code (the text is not a contract: ParseError "parse-contract").
    with pytest.raises(ValueError) as info:
        Position.from_text(hands=["AS", "KS", ""], trump=trump, declarer=0, leader=0)
    err = info.value
    assert isinstance(err, PastonError)
    assert err.code in ("bad-trump", "parse-contract")
    assert "no-trump" in str(err) or "contract" in str(err)


@pytest.mark.parametrize(
    "trump", ["spades", "glitch", "D", "♥", "best-spades", "paston grkha", 0, 3, Contract.CLUBS]
)
def test_good_trump_spellings(trump: object) -> None:
    pos = Position.from_text(hands=["AS", "KS", ""], trump=trump, declarer=0, leader=0)  # type: ignore[arg-type]
    assert isinstance(pos.contract, Contract)


def test_bad_card_text() -> None:
    for hands, trick in ((["AS ZZ", "KS QS", ""], ""), (["AS", "KS", ""], "1S")):
        with pytest.raises(ValueError) as info:
            Position.from_text(hands=hands, trump="spades", declarer=0, leader=0, trick=trick)
        assert isinstance(info.value, PastonError) and info.value.code.startswith("parse")


def test_from_text_needs_three_hands() -> None:
    refused("bad-hands", lambda: Position.from_text(hands=["AS", "KS"], trump="spades", declarer=0, leader=0))


def test_from_text_tricks_of_the_wrong_length() -> None:
    # Two counts instead of three: a PositionError, not an IndexError.
    refused(
        "bad-tricks",
        lambda: Position.from_text(
            hands=["AS", "KS", ""], trump="spades", declarer=0, leader=0, tricks=(1, 2)
        ),
    )


def test_hands_of_the_wrong_length() -> None:
    # A two-element hands tuple: a PositionError, not an IndexError.
    refused(
        "bad-hands",
        lambda: Position(
            hands=(1, 2),  # type: ignore[arg-type]
            contract=Contract.SPADES,
            declarer=0,
            defenders=(1,),
            leader=0,
        ),
    )


@pytest.mark.parametrize("contract", ["spades", 0, None])
def test_contract_must_be_a_contract(contract: object) -> None:
    # Position(contract="spades") must be refused when built, not crash in the solver
    # later with an AttributeError.
    def build() -> object:
        pos = Position(hands=(1, 2, 0), contract=contract, declarer=0, defenders=(1,), leader=0)  # type: ignore[arg-type]
        return Solver(memory_mb=1).tricks(pos)

    refused("bad-trump", build)


# --- max^n and deals ----------------------------------------------------------------------------
def test_maxn_on_a_non_full_deal() -> None:
    pos = make(("AS", "KS", "QS"), tricks=(2, 2, 2))
    err = refused("not-full-deal", lambda: Solver(memory_mb=1).maxn(pos))
    assert "10" in str(err)
    refused("not-full-deal", lambda: reference.maxn_scores(pos))
    refused("not-full-deal", lambda: reference.maxn_card_values(pos))
    # the trick queries work on such a position
    assert Solver(memory_mb=1).tricks(pos) == 3


def test_maxn_core_refuses_what_it_cannot_search() -> None:
    # The compiled max^n searches three active seats (two-hand play goes through the
    # declarer-against-defender search); it refuses anything else, and a table buffer
    # below its minimum size, with a ValueError instead of searching garbage.
    from paston.solver import _core  # type: ignore[attr-defined]

    hands = (0b111, 0b111 << 8, 0b111 << 16)
    ab_table = bytearray(4096)
    three = (*hands, 0, 0, 0b111, 0, (), ab_table)
    two = (hands[0], hands[1], 0, 0, 0, 0b011, 0, (), ab_table)
    smallest = _core.MAXN_TABLE_MIN_BYTES
    with pytest.raises(ValueError, match="three active seats"):
        _core.maxn(two, (7, 0, 0), bytearray(smallest))
    with pytest.raises(ValueError, match="too small"):
        _core.maxn(three, (7, 0, 0), bytearray(100))
    (t0, t1, t2), per_card, _nodes = _core.maxn(three, (7, 0, 0), bytearray(smallest))
    assert t0 + t1 + t2 == 10 and set(per_card) == {0, 1, 2}


def test_from_deal_outside_the_play() -> None:
    deal = Deal(list(range(32)), dealer=0)
    assert deal.phase is not Phase.PLAY
    refused("not-in-play", lambda: Position.from_deal(deal))


def test_errors_are_value_errors_with_codes() -> None:
    assert issubclass(PositionError, ValueError) and issubclass(PositionError, PastonError)
    assert PositionError("x-y", "message").code == "x-y"
