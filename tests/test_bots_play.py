"""Sanity of the computer players' choices in hand-built situations.

Each test builds a deal from explicit hands (tests/helpers.py deals them by R1.3),
scripts the actions up to the decision, and asserts only what any sensible player must
do there. Seat 2 deals, so seat 0 speaks first (R2.3, not the first deal) and, after
``bid spades; pass; pass``, declares; seat 1 answers whist or pass first (R5.1).
"""

from __future__ import annotations

import pytest

from helpers import act, make_deal, play_cards
from paston.actions import PASS, SURRENDER, WHIST, Action, Kind
from paston.bots import make_player
from paston.cards import Card
from paston.contracts import Contract
from paston.deal import Deal, Phase


def choose(name: str, deal: Deal) -> Action:
    seat = deal.to_move
    assert seat is not None
    action = make_player(name, seed=1).choose(deal.view(seat))
    assert action in deal.legal_actions()
    return action


def three_handed(hands: dict[int, str], prikup: str, trump: str) -> Deal:
    """Seat 0 declares ``trump`` after discarding the prikup; both others whist."""
    deal = make_deal(dealer=2, hands=hands, prikup=prikup)
    act(deal, f"bid spades; pass; pass; discard {prikup}; trump {trump}; whist; whist")
    assert deal.phase is Phase.PLAY and deal.defenders == (1, 2)
    return deal


# --- heuristic: card play ---------------------------------------------------------------------------
def follow_deal() -> Deal:
    """Diamonds trump; seat 2 (a defender, last to play to trick 1) holds K♥ Q♥ 8♥."""
    return three_handed(
        {
            0: "7H JH AC KC QC JC AD KD QD JD",
            1: "AH TH 7C 8C 9C TC 7D 8D 9D TD",
            2: "KH QH 8H 7S 8S 9S TS JS QS KS",
        },
        prikup="9H AS",
        trump="diamonds",
    )


def test_heuristic_follows_low_when_partner_wins() -> None:
    """The declarer leads 7♥ and defender 1 takes it with A♥: the partner wins the trick,
    so defender 2 plays the 8♥ and keeps its honours (now the top hearts)."""
    deal = follow_deal()
    play_cards(deal, "7H AH")
    assert deal.to_move == 2
    assert choose("heuristic", deal) is Action.parse("8H")


def test_heuristic_wins_cheaply_as_last_player() -> None:
    """Same hands, but the declarer leads J♥ and defender 1 plays 10♥: the declarer wins
    so far. Defender 2, last, takes the trick with the cheapest card that does: Q♥ (the 8♥
    loses it, the K♥ wastes a card)."""
    deal = follow_deal()
    play_cards(deal, "JH TH")
    assert choose("heuristic", deal) is Action.parse("QH")


def test_heuristic_ruffs_low_when_void() -> None:
    """Spades trump, one defender (R5.2). The declarer leads A♣; the lone defender has no
    clubs and must trump (R6.2). It holds 7♠ and A♠: the 7♠ wins the trick just as well and
    the A♠ stays a sure trick."""
    deal = make_deal(
        dealer=2,
        hands={
            0: "AC KC QC JC TC 9C AH KH QH JH",
            1: "7S AS 7H 8H 9H TH 7D 8D 9D TD",
            2: "8S 9S TS JS QS KS 8C 7C JD QD",
        },
        prikup="KD AD",
    )
    act(deal, "bid spades; pass; pass; discard KD AD; trump spades; whist; pass")
    assert deal.defenders == (1,)
    play_cards(deal, "AC")
    assert choose("heuristic", deal) is Action.parse("7S")


def test_heuristic_declarer_draws_trumps_with_the_top_trumps() -> None:
    """Hearts trump; the declarer holds A K Q J of trumps, the defenders the four small
    ones (and side kings and queens). On lead it draws trumps."""
    deal = make_deal(
        dealer=2,
        hands={
            0: "AH KH QH JH AS KS AC KC AD KD",
            1: "7H 8H QS JS TS QC JC TC QD JD",
            2: "9H TH 9S 8S 7S 9C 8C 7C TD 9D",
        },
        prikup="8D 7D",
    )
    act(deal, "bid spades; pass; pass; discard 8D 7D; trump hearts; whist; whist")
    action = choose("heuristic", deal)
    assert action.kind is Kind.PLAY and action.cards[0].suit == 3  # a heart


# --- heuristic and pimc: auction, whist, surrender ---------------------------------------------------
STRONG = "AH KH QH JH TH 9H AS AC AD KD"
WEAK = "8S 9S 7C 8C 9C 7D 8D 9D 7H 8H"


@pytest.mark.parametrize("name", ["heuristic", "pimc:1"])
def test_bids_with_a_very_strong_hand_and_passes_with_a_weak_one(name: str) -> None:
    strong = make_deal(dealer=2, hands={0: STRONG})
    assert strong.redeal is None and strong.to_move == 0
    assert choose(name, strong) is Action.bid(Contract.SPADES)
    weak = make_deal(dealer=2, hands={0: WEAK})
    assert weak.redeal is None and weak.to_move == 0
    assert choose(name, weak) is PASS


def test_heuristic_overcalls_with_a_very_strong_hand() -> None:
    """After seat 0's spades, seat 1 with six top hearts and aces bids the next step
    (clubs: it may name hearts later, R4.2)."""
    deal = make_deal(dealer=2, hands={1: "AH KH QH JH TH 9H AC AD KC KD"})
    act(deal, "bid spades")
    assert choose("heuristic", deal) is Action.bid(Contract.CLUBS)


def whist_deal(answerer_hand: str) -> Deal:
    """Seat 0 declares spades; seat 1 answers first."""
    deal = make_deal(dealer=2, hands={1: answerer_hand})
    act(deal, "bid spades; pass; pass")
    prikup = [str(c) for c in deal.view(0).prikup or ()]
    act(deal, f"discard {prikup[0]} {prikup[1]}; trump spades")
    assert deal.phase is Phase.DEFENCE and deal.to_move == 1
    return deal


DEFENCE_STRONG = "AS KS QS AC KC AD KD AH KH QC"
DEFENCE_WEAK = "7C 8C 9C TC 7D 8D 9D 7H 8H 9H"


@pytest.mark.parametrize("name", ["heuristic", "pimc:1"])
def test_whists_with_strong_defence_and_passes_with_nothing(name: str) -> None:
    """A K Q of trumps and three side aces with kings: several sure tricks, whist. No
    trump and no card above a 10: no trick to expect, pass (passing scores 0, R7.4)."""
    assert choose(name, whist_deal(DEFENCE_STRONG)) is WHIST
    assert choose(name, whist_deal(DEFENCE_WEAK)) is PASS


def test_heuristic_whists_alone_with_strong_defence() -> None:
    """Seat 1 passed; seat 2 holds the strong defence and plays alone (needs 4, R5.2)."""
    deal = make_deal(dealer=2, hands={2: DEFENCE_STRONG})
    act(deal, "bid spades; pass; pass")
    prikup = [str(c) for c in deal.view(0).prikup or ()]
    act(deal, f"discard {prikup[0]} {prikup[1]}; trump spades; pass")
    assert deal.to_move == 2
    assert choose("heuristic", deal) is WHIST


def dear_contract(declarer_hand: str, others: dict[int, str], prikup: str) -> Deal:
    """Seat 0 ends the auction with hearts (multiplier 4): only hearts or surrender remain."""
    deal = make_deal(dealer=2, hands={0: declarer_hand, **others}, prikup=prikup)
    act(deal, "bid spades; bid clubs; bid diamonds; bid hearts; pass; pass")
    assert deal.declarer == 0
    return deal


@pytest.mark.parametrize("name", ["heuristic", "pimc:1"])
def test_surrenders_a_hopeless_dear_contract(name: str) -> None:
    """Hearts with 9 8 7 of trumps and no card above a 9: failing costs -40 (R7.1),
    surrendering -10 (R7.7). Surrender."""
    deal = dear_contract(
        "7S 8S 9S 7C 8C 9C 7D 8D 9D 7H",
        {1: "AS KS QS JS TS AC KC QC JC TC", 2: "AD KD QD JD TD AH KH QH JH TH"},
        prikup="8H 9H",
    )
    act(deal, "discard 7S 8S")
    assert deal.phase is Phase.TRUMP
    assert {str(a) for a in deal.legal_actions()} == {"trump hearts", "surrender"}
    assert choose(name, deal) is SURRENDER


def test_heuristic_plays_a_dear_contract_it_can_make() -> None:
    deal = dear_contract(
        "AH KH QH JH TH AS AC AD KD KC",
        {1: "KS QS JS TS 9S QC JC TC 9C 8C", 2: "QD JD TD 9D 8D 9H 8H 7H 7C 8S"},
        prikup="7S 7D",
    )
    act(deal, "discard 7S 7D")
    assert choose("heuristic", deal) is Action.trump(Contract.HEARTS)


# --- endings: one defender, seat 0 declares spades, seat 1 defends, seat 2 passes --------------------
# Tricks 1-5: the declarer cashes A K Q J 10 of hearts; the defender, who has no hearts and
# no spades, throws clubs (showing both voids, R6.2). The defender takes tricks 6-8 and
# leads trick 9 with the declarer on 5 tricks: the last two tricks decide the contract.
# The passer holds all eight spades; the declarer's discard accounts for every other
# card, so whatever world a player samples, the defender's last card is the K♣.
def lone_ending(declarer: str, defender: str, passer: str, prikup: str, plays: str) -> Deal:
    deal = make_deal(dealer=2, hands={0: declarer, 1: defender, 2: passer}, prikup=prikup)
    act(deal, f"bid spades; pass; pass; discard {prikup}; trump spades; whist; pass")
    assert deal.defenders == (1,)
    play_cards(deal, plays)
    assert deal.tricks == (5, 3, 0) and deal.to_move == 0
    return deal


@pytest.mark.parametrize("name", ["pimc:1", "heuristic"])
def test_takes_an_obviously_winning_trick(name: str) -> None:
    """Trick 9: the defender leads K♦, the declarer holds A♦ 7♦. A♦ takes tricks 9 and 10
    (the defender's K♣ cannot follow the 7♦): 7 tricks. The 7♦ loses both: 5 tricks."""
    deal = lone_ending(
        declarer="AH KH QH JH TH 9H 8D 9D AD 7D",
        defender="7C 8C 9C TC JC QD JD QC KD KC",
        passer="7S 8S 9S TS JS QS KS AS 8H 7H",
        prikup="TD AC",
        plays="AH 7C KH 8C QH 9C JH TC TH JC 8D QD JD 9D QC 9H KD",
    )
    assert {str(a) for a in deal.legal_actions()} == {"play AD", "play 7D"}
    assert choose(name, deal) is Action.parse("AD")


@pytest.mark.parametrize("name", ["pimc:1", "heuristic"])
def test_does_not_throw_away_a_sure_winner(name: str) -> None:
    """Trick 9: the defender leads 7♦; the declarer has no diamond and no trump and holds
    A♣ and 7♥. Throwing the 7♥ keeps the A♣ for the defender's K♣ in trick 10 (6 tricks,
    made); throwing the A♣ leaves 5 tricks."""
    deal = lone_ending(
        declarer="AH KH QH JH TH 8D 9D TD AC 7H",
        defender="7C 8C 9C TC JC AD KD QD 7D KC",
        passer="7S 8S 9S TS JS QS KS AS 9H 8H",
        prikup="JD QC",
        plays="AH 7C KH 8C QH 9C JH TC TH JC 8D AD KD 9D QD TD 7D",
    )
    assert {str(a) for a in deal.legal_actions()} == {"play AC", "play 7H"}
    assert choose(name, deal) is Action.parse("7H")
    # the position is what the docstring says: the A♣ really is the tenth trick
    play_cards(deal, "7H KC AC")
    assert deal.result is not None and deal.result.tricks[0] == 6
    assert Card.parse("AC") in deal.view(0).played


def test_pimc_values_a_defenders_cards_by_maxn_from_the_first_trick() -> None:
    # As one of two defenders, pimc scores each card with max^n and the exact scores of
    # R7 (defenders are paid on their own tricks) in every world, from the first trick
    # on; the declarer-only trick count is not used for that decision.
    from unittest import mock

    from paston.bots.pimc import PimcPlayer

    deal = follow_deal()
    play_cards(deal, "AD")  # the declarer leads; seat 1, a defender with 10 cards, follows
    assert deal.to_move == 1 and len(deal.defenders) == 2
    bot = PimcPlayer(seed=1, level=1, threads=1)  # one thread: every world on bot.solver
    with (
        mock.patch.object(bot.solver, "maxn", wraps=bot.solver.maxn) as maxn,
        mock.patch.object(bot.solver, "solve", wraps=bot.solver.solve) as solve,
    ):
        action = bot.choose(deal.view(1))
    assert action in deal.legal_actions()
    assert maxn.call_count >= 2 and solve.call_count == 0
