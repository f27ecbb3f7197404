"""R0: the table (three seats clockwise) and the cards (notation and ranking)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import ALL_CODES, act, make_deal, make_deck, play_cards, positions_of
from paston.actions import Action
from paston.cards import ALL_CARDS, Card, CardSet
from paston.contracts import Contract
from paston.deal import Deal
from paston.errors import ParseError

RANKS = "789TJQKA"
SUITS = "SCDH"
SYMBOLS = "♠♣♦♥"


# --- R0.1 three seats, clockwise -----------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_r0_1_dealing_starts_on_dealers_left_and_goes_clockwise(dealer):
    deck = list(range(32))
    deal = Deal(deck, dealer=dealer)
    left, right = (dealer + 1) % 3, (dealer + 2) % 3
    # the first two cards go to the player on the dealer's left, the next two to the right
    assert deal.hand(left).mask >> 0 & 1 and deal.hand(left).mask >> 1 & 1
    assert deal.hand(right).mask >> 2 & 1 and deal.hand(right).mask >> 3 & 1
    assert deal.hand(dealer).mask >> 4 & 1 and deal.hand(dealer).mask >> 5 & 1


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_r0_1_bidding_goes_clockwise(dealer):
    deal = make_deal(dealer=dealer)
    first = (dealer + 1) % 3
    assert deal.to_move == first
    act(deal, "pass")
    assert deal.to_move == (first + 1) % 3
    act(deal, "bid spades")
    assert deal.to_move == (first + 2) % 3


def test_r0_1_play_goes_clockwise_from_the_leader():
    # Seat 1 declares (dealer 0), both defend: the order of a trick is 1, 2, 0.
    deal = make_deal(
        dealer=0,
        hands={
            1: "AS KS QS JS AC KC QC JC AD KD",
            2: "TS 9S 8S TC 9C 8C TD 9D 8D AH",
            0: "7C 7D QD JD KH QH JH TH 9H 8H",
        },
        prikup="7S 7H",
    )
    act(deal, "bid spades; pass; pass; discard 7S 7H; trump spades; whist; whist")
    seen = []
    for code in ("AS", "TS", "7C"):
        seen.append(deal.to_move)
        play_cards(deal, code)
    assert seen == [1, 2, 0]


def test_r0_1_left_and_right_neighbours():
    # The defence starts with the declarer's left-hand opponent, (s + 1) % 3.
    for declarer in range(3):
        deal = make_deal(dealer=(declarer - 1) % 3)
        act(deal, "bid spades; pass; pass")
        assert deal.declarer == declarer
        hand = sorted(deal.hand(declarer), key=lambda c: c.index)
        act(deal, [f"discard {hand[0]} {hand[1]}", "trump spades"])
        assert deal.to_move == (declarer + 1) % 3
        act(deal, "pass")
        assert deal.to_move == (declarer + 2) % 3


# --- R0.2 cards ------------------------------------------------------------------------------


def test_r0_2_thirty_two_cards_four_suits_eight_ranks():
    assert len(ALL_CARDS) == 32
    codes = [str(c) for c in ALL_CARDS]
    assert len(set(codes)) == 32
    assert sorted(codes) == sorted(r + s for r in RANKS for s in SUITS)
    assert len(CardSet(range(32))) == 32


def test_r0_2_rank_order_ace_high_seven_low():
    for suit in SUITS:
        ranked = [Card.parse(r + suit) for r in RANKS]
        assert [c.rank for c in ranked] == list(range(8))
    assert Card.parse("AS").rank > Card.parse("KS").rank > Card.parse("QS").rank > Card.parse("JS").rank
    assert Card.parse("JS").rank > Card.parse("TS").rank > Card.parse("9S").rank


def test_r0_2_rank_order_decides_tricks():
    # Lone defender, hearts led: 10 beats 9, J beats 10, A beats K (R0.2 ranking in play).
    deal = make_deal(
        dealer=2,
        hands={
            0: "TH QH AH 7C 8C 9C TC JC QC KC",
            1: "9H JH KH 7D 8D 9D TD JD QD KD",
            2: "AS KS QS JS TS 9S 8S 7S AC AD",
        },
        prikup="7H 8H",
    )
    act(deal, "bid spades; pass; pass; discard 7H 8H; trump spades; whist; pass")
    play_cards(deal, "TH 9H")
    assert deal.completed_tricks[-1].winner == 0
    play_cards(deal, "QH JH")
    assert deal.completed_tricks[-1].winner == 0
    play_cards(deal, "AH KH")
    assert deal.completed_tricks[-1].winner == 0
    play_cards(deal, "7C 7D")  # seat 1 cannot follow clubs and has no trump
    assert deal.completed_tricks[-1].winner == 0


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("TH", "TH"),
        ("10H", "TH"),
        ("A♠", "AS"),
        ("10♥", "TH"),
        ("7S", "7S"),
        ("as", "AS"),
        ("t♦", "TD"),
        ("J♣", "JC"),
        ("10c", "TC"),
        ("Q♦", "QD"),
        (" KH ", "KH"),
    ],
)
def test_r0_2_card_notation_parses(text, code):
    card = Card.parse(text)
    assert str(card) == code
    assert card.index == ALL_CODES.index(code)


@pytest.mark.parametrize(("code", "pretty"), [("TH", "10♥"), ("AS", "A♠"), ("7C", "7♣"), ("JD", "J♦")])
def test_r0_2_card_printing(code, pretty):
    card = Card.parse(code)
    assert str(card) == code
    assert card.pretty() == pretty
    assert Card.parse(pretty) is card


@pytest.mark.parametrize("bad", ["ZZ", "", "1H", "10", "H", "TX", "11H", "AS7", "0H", "T", "♠A"])
def test_r0_2_bad_card_text_raises_parse_error(bad):
    with pytest.raises(ParseError) as info:
        Card.parse(bad)
    assert info.value.code == "parse-card"
    assert isinstance(info.value, ValueError)


def test_r0_2_zz_message_names_the_input():
    with pytest.raises(ParseError, match="cannot parse card 'ZZ'"):
        Card.parse("ZZ")


@given(
    rank=st.integers(0, 7),
    suit=st.integers(0, 3),
    ten_as_digits=st.booleans(),
    symbol=st.booleans(),
    lower=st.booleans(),
)
def test_r0_2_card_notation_round_trip(rank, suit, ten_as_digits, symbol, lower):
    r = "10" if ten_as_digits and rank == 3 else RANKS[rank]
    s = SYMBOLS[suit] if symbol else SUITS[suit]
    text = r + s
    if lower:
        text = text.lower()
    card = Card.parse(text)
    assert (card.suit, card.rank) == (suit, rank)
    assert str(card) == RANKS[rank] + SUITS[suit]
    assert Card.parse(str(card)) is card
    assert Card.parse(card.pretty()) is card


@given(st.sets(st.integers(0, 31)))
def test_r0_2_card_set_round_trip(indices):
    cs = CardSet(indices)
    assert CardSet.parse(str(cs)) == cs
    assert CardSet.parse(" ".join(c.pretty() for c in cs)) == cs
    assert len(cs) == len(indices)


def test_r0_2_card_set_rejects_duplicates():
    with pytest.raises(ParseError) as info:
        CardSet.parse("TH 10H")
    assert info.value.code == "parse-cards"


def test_r0_2_action_card_notation():
    assert Action.parse("10♥") is Action.parse("TH") is Action.parse("play 10H")
    with pytest.raises(ParseError) as info:
        Action.parse("ZZ")
    assert info.value.code == "parse-action"


def test_r0_2_deck_uses_all_codes():
    deck = make_deck(dealer=0)
    assert sorted(deck) == list(range(32))
    assert {str(ALL_CARDS[i]) for i in deck} == set(ALL_CODES)
    assert positions_of(1, 0)[0] == 0


# --- contract names (Names section; R3.1 ladder words; R4.2 no no-trump) ---------------------


@pytest.mark.parametrize(
    ("text", "contract"),
    [
        ("paston", Contract.SPADES),
        ("glitch", Contract.CLUBS),
        ("dineri", Contract.DIAMONDS),
        ("gupa", Contract.HEARTS),
        ("paston grkha", Contract.BEST_SPADES),
        ("spades", Contract.SPADES),
        ("clubs", Contract.CLUBS),
        ("diamonds", Contract.DIAMONDS),
        ("hearts", Contract.HEARTS),
        ("best-spades", Contract.BEST_SPADES),
        ("Paston Grkha", Contract.BEST_SPADES),
        ("GUPA", Contract.HEARTS),
    ],
)
def test_r0_2_contract_names_parse(text, contract):
    assert Contract.parse(text) is contract


@pytest.mark.parametrize("bad", ["notrump", "no-trump", "no trump", "nt", "sans", "", "spade", "grkha"])
def test_r0_2_contract_parse_rejects_notrump_and_junk(bad):
    with pytest.raises(ParseError) as info:
        Contract.parse(bad)
    assert info.value.code == "parse-contract"


def test_r0_2_contract_record_names_and_words():
    assert [c.name_in_record for c in Contract] == ["spades", "clubs", "diamonds", "hearts", "best-spades"]
    assert [c.word for c in Contract] == ["paston", "glitch", "dineri", "gupa", "paston grkha"]
    for c in Contract:
        assert Contract.parse(c.name_in_record) is c
        assert Contract.parse(c.word) is c
