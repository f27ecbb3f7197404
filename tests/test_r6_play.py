"""R6: the play — the lead, following suit, trumping, winning tricks."""

from __future__ import annotations

import itertools

import pytest

from helpers import act, assert_illegal, legal_strs, make_deal, play_cards, scripted_lone, scripted_three
from paston.actions import Action
from paston.deal import Deal, Phase

# Seat 0 declares (dealer 2, seat 0 bids first). Hearts is trump in most tests below.
HANDS = {
    0: "AS KS QS AC KC QC AD KD AH 7H",
    1: "JS TS 9S JC TC 9C JD TD KH QH",
    2: "8S 7S 8C 7C QD 9D 8D 7D JH TH",
}
PRIKUP = "9H 8H"


def _play(contract: str = "hearts", answers: str = "whist; whist"):
    deal = make_deal(dealer=2, hands=HANDS, prikup=PRIKUP)
    act(deal, f"bid spades; pass; pass; discard 9H 8H; trump {contract}; {answers}")
    assert deal.phase is Phase.PLAY
    return deal


# --- R6.1 the declarer leads; turn among active players -------------------------------------------


@pytest.mark.parametrize("declarer", [0, 1, 2])
def test_r6_1_declarer_leads_the_first_trick(declarer):
    s = scripted_three(declarer=declarer, split=(4, 3, 3))
    deal = Deal(s.deck, dealer=s.dealer)
    act(deal, s.setup)
    assert deal.phase is Phase.PLAY
    assert deal.to_move == declarer
    play_cards(deal, s.plays[0])
    assert deal.completed_tricks == () and deal.current_trick[0][0] == declarer


def test_r6_1_declarer_leads_even_when_not_left_of_dealer():
    # Seat 1 bids first (dealer 0) but seat 2 becomes declarer: seat 2 leads.
    deal = make_deal(dealer=0, hands=HANDS, prikup=PRIKUP)
    act(deal, "pass; bid spades; pass")
    assert deal.declarer == 2
    low = sorted(deal.hand(2), key=lambda c: c.index)
    act(deal, f"discard {low[0]} {low[1]}; trump spades; whist; whist")
    assert deal.to_move == 2


def test_r6_1_three_active_turn_goes_clockwise():
    deal = _play()
    order = []
    for code in ("AS", "JS", "8S"):
        order.append(deal.to_move)
        play_cards(deal, code)
    assert order == [0, 1, 2]


@pytest.mark.parametrize(("answers", "defender"), [("whist; pass", 1), ("pass; whist", 2)])
def test_r6_1_two_active_turn_alternates(answers, defender):
    deal = _play(answers=answers)
    seen = []
    for _ in range(4):
        seen.append(deal.to_move)
        act(deal, str(deal.legal_actions()[-1]))
    # declarer leads; each trick has exactly two cards; the passer never moves
    assert seen[0] == 0 and seen[1] == defender
    assert all(s in (0, defender) for s in seen)
    assert [len(t.plays) for t in deal.completed_tricks] == [2, 2]


# --- R6.2 follow suit, else trump, else anything ---------------------------------------------------


def test_r6_2_must_follow_suit():
    deal = _play()
    play_cards(deal, "AS")
    assert legal_strs(deal) == ["play 9S", "play TS", "play JS"]
    err = assert_illegal(
        deal, "KH", "R6.2", "must-follow-suit", message_start="R6.2: seat 1 must follow spades"
    )
    assert err.seat == 1
    assert "holds" in str(err)
    assert_illegal(deal, "JC", "R6.2", "must-follow-suit")


def test_r6_2_must_follow_suit_message_example():
    # The example of the brief: seat 2 must follow hearts.
    deal = _play()
    play_cards(deal, "AH KH")
    assert_illegal(deal, "8S", "R6.2", "must-follow-suit", message_start="R6.2: seat 2 must follow hearts")


def test_r6_2_no_obligation_to_beat():
    deal = _play()
    play_cards(deal, "AS")  # seat 1 may play its lowest spade
    play_cards(deal, "9S")
    assert deal.to_move == 2
    play_cards(deal, "7S")
    assert deal.completed_tricks[0].winner == 0
    # seat 0 leads QC; seat 1 may play any club, not only one that beats the queen
    play_cards(deal, "QC")
    assert set(legal_strs(deal)) == {"play JC", "play TC", "play 9C"}
    play_cards(deal, "9C")
    assert set(legal_strs(deal)) == {"play 8C", "play 7C"}


def test_r6_2_void_must_trump():
    deal = make_deal(
        dealer=2,
        hands={
            0: "AS KS QS JS AC KC QC JC AD KD",
            1: "TS 9S 8S 7S TC 9C 8C 7C KH QH",
            2: "QD JD TD 9D 8D 7D AH JH TH 9H",
        },
        prikup="8H 7H",
    )
    act(deal, "bid spades; pass; pass; discard 8H 7H; trump hearts; whist; whist")
    play_cards(deal, "AD")
    assert legal_strs(deal) == ["play QH", "play KH"]  # no diamonds: trump
    err = assert_illegal(
        deal,
        "7S",
        "R6.2",
        "must-trump",
        message_start="R6.2: seat 1 cannot follow diamonds and must play a trump",
    )
    assert err.seat == 1
    assert_illegal(deal, "TC", "R6.2", "must-trump")
    play_cards(deal, "QH")
    play_cards(deal, "7D")
    assert deal.completed_tricks[0].winner == 1


def test_r6_2_void_must_trump_declarer_too():
    deal = make_deal(
        dealer=2,
        hands={
            0: "AS KS QS JS AC KC QC JC AD KD",
            1: "TS 9S 8S 7S TC 9C 8C 7C TH 9H",
            2: "QD JD TD 9D 8D 7D AH KH QH JH",
        },
        prikup="8H 7H",
    )
    act(deal, "bid spades; pass; pass; discard 8H 7H; trump diamonds; whist; whist")
    play_cards(deal, "AS 7S")
    # seat 2 has no spades but holds diamonds (trump): it must trump
    assert legal_strs(deal) == ["play " + c for c in ["7D", "8D", "9D", "TD", "JD", "QD"]]
    play_cards(deal, "7D")
    assert deal.completed_tricks[0].winner == 2
    # seat 2 leads hearts; the declarer discarded its hearts and holds AD KD: it must trump
    play_cards(deal, "AH")
    assert legal_strs(deal) == ["play KD", "play AD"]
    play_cards(deal, "KD")
    # seat 1 follows hearts
    assert legal_strs(deal) == ["play 9H", "play TH"]
    play_cards(deal, "9H")
    assert deal.completed_tricks[1].winner == 0


def test_r6_2_void_without_trump_plays_any_card():
    # Spades trump; seat 1 has neither clubs nor spades: any card.
    deal = make_deal(
        dealer=2,
        hands={
            0: "AS KS QS JS AC KC QC JC AD KD",
            1: "QD JD TD 9D AH KH QH JH TH 9H",
            2: "TS 9S 8S 7S TC 9C 8C 7C 8D 7D",
        },
        prikup="8H 7H",
    )
    act(deal, "bid spades; pass; pass; discard 8H 7H; trump spades; whist; whist")
    play_cards(deal, "AC")
    assert set(deal.legal_actions()) == {Action.play(c) for c in deal.hand(1)}
    assert len(deal.legal_actions()) == 10
    play_cards(deal, "AH")  # a higher-ranked off-suit card does not win
    play_cards(deal, "7C")
    assert deal.completed_tricks[0].winner == 0


def test_r6_2_card_not_held():
    deal = _play()
    err = assert_illegal(deal, "JS", "R6.2", "card-not-held", message_start="R6.2: seat 0 does not hold JS")
    assert err.seat == 0
    assert_illegal(deal, "9H", "R6.2", "card-not-held")  # discarded


@pytest.mark.parametrize(
    "action", ["pass", "whist", "bid clubs", "trump hearts", "surrender", "discard AS KS"]
)
def test_r6_2_only_cards_in_play(action):
    deal = _play()
    assert_illegal(deal, action, "R6.2", "wrong-phase")


def test_r6_2_not_your_turn_in_play():
    deal = _play()
    err = assert_illegal(deal, "JS", "R6.2", "not-your-turn", seat=1)
    assert "seat 0's turn" in str(err)


def test_r6_2_legal_play_mask_matches_legal_actions():
    deal = _play()
    while not deal.is_over:
        mask = deal.legal_play_mask()
        assert sum(1 << a.id for a in deal.legal_actions()) == mask
        for card in deal.hand(deal.to_move):
            assert deal.is_legal(Action.play(card)) == bool(mask >> card.index & 1)
        act(deal, str(deal.legal_actions()[0]))


# --- R6.3 winning tricks -----------------------------------------------------------------------------


def test_r6_3_trump_beats_the_suit_led():
    deal = make_deal(
        dealer=2,
        hands={
            0: "AS KS QS JS AC KC QC JC AD KD",
            1: "TS 9S 8S 7S TC 9C 8C 7C 7H KH",
            2: "QD JD TD 9D 8D 7D AH QH JH TH",
        },
        prikup="9H 8H",
    )
    act(deal, "bid spades; pass; pass; discard 9H 8H; trump hearts; whist; whist")
    play_cards(deal, "AD")  # seat 1 is void in diamonds: it trumps
    play_cards(deal, "KH")
    play_cards(deal, "7D")
    assert deal.completed_tricks[0].winner == 1  # a trump beats the ace led
    # seat 1 leads a club; seat 2 has no clubs and must trump; seat 0 follows with the ace
    play_cards(deal, "7C")
    assert legal_strs(deal) == ["play TH", "play JH", "play QH", "play AH"]
    play_cards(deal, "TH")
    play_cards(deal, "AC")
    assert deal.completed_tricks[1].winner == 2


def test_r6_3_highest_trump_wins():
    deal = make_deal(
        dealer=2,
        hands={
            0: "AC KC QC JC TC 9C 8C 7C AD KD",
            1: "AS KS QS JS TS 9S 8S 7S 8H 7H",
            2: "QD JD TD 9D 8D 7D AH KH QH JH",
        },
        prikup="TH 9H",
    )
    act(deal, "bid spades; pass; pass; discard TH 9H; trump hearts; whist; whist")
    play_cards(deal, "AC 8H")  # seat 1 trumps
    assert legal_strs(deal) == ["play JH", "play QH", "play KH", "play AH"]
    play_cards(deal, "JH")  # seat 2 over-trumps
    assert deal.completed_tricks[0].winner == 2
    assert deal.to_move == 2
    # seat 2 leads a trump: seat 0 has none (any card), seat 1 follows with its 7H
    play_cards(deal, "AH 7C 7H")
    assert deal.completed_tricks[1].winner == 2


def test_r6_3_trump_led_wins_against_a_player_without_trumps():
    deal = make_deal(
        dealer=2,
        hands={
            0: "AS KS QS JS AC KC QC JC AD KD",
            1: "TS 9S 8S 7S TC 9C 8C 7C 7H KH",
            2: "AH QD JD TD 9D 8D QH JH TH 9H",
        },
        prikup="7D 8H",
    )
    act(deal, "bid spades; pass; pass; discard 7D 8H; trump hearts; whist; pass")
    play_cards(deal, "AD")
    play_cards(deal, "7H")  # the lowest trump beats the ace of the suit led
    assert deal.completed_tricks[0].winner == 1
    play_cards(deal, "KH")  # seat 1 leads a trump; seat 0 has none: any card, even an ace
    assert len(deal.legal_actions()) == 9
    play_cards(deal, "AC")
    assert deal.completed_tricks[1].winner == 1


def test_r6_3_without_trump_highest_of_suit_led_wins():
    deal = _play("clubs")
    play_cards(deal, "AH KH JH")
    assert deal.completed_tricks[0].winner == 0
    play_cards(deal, "KS JS 8S")
    assert deal.completed_tricks[1].winner == 0
    play_cards(deal, "7H QH TH")  # seat 0 leads its low heart: seat 1's queen wins
    assert deal.completed_tricks[2].winner == 1


def test_r6_3_winner_leads_next_trick():
    deal = _play("clubs")
    play_cards(deal, "7H QH TH")
    assert deal.completed_tricks[0].winner == 1
    assert deal.to_move == 1
    assert deal.current_trick == ()
    play_cards(deal, "JD")
    assert deal.current_trick[0][0] == 1
    assert deal.to_move == 2


def test_r6_3_all_ten_tricks_with_three_players():
    s = scripted_three(declarer=1, split=(3, 4, 3), contract="diamonds")
    deal = s.deal()
    assert len(deal.completed_tricks) == 10
    assert all(len(t.plays) == 3 for t in deal.completed_tricks)
    assert [t.winner for t in deal.completed_tricks] == s.winners
    assert deal.tricks == (3, 4, 3)
    assert all(len(deal.hand(seat)) == 0 for seat in range(3))


def test_r6_3_all_ten_tricks_with_two_players():
    s = scripted_lone(declarer=2, defender=0, declarer_tricks=7, contract="clubs")
    deal = s.deal()
    assert len(deal.completed_tricks) == 10
    assert all(len(t.plays) == 2 for t in deal.completed_tricks)
    assert [t.winner for t in deal.completed_tricks] == s.winners
    assert deal.tricks == (3, 0, 7)
    assert len(deal.hand(1)) == 10  # passer


def test_r6_3_trick_leaders_follow_winners():
    s = scripted_three(declarer=0, split=(2, 5, 3), contract="hearts")
    deal = s.deal()
    tricks = deal.completed_tricks
    assert tricks[0].leader == 0
    for prev, nxt in itertools.pairwise(tricks):
        assert nxt.leader == prev.winner
        assert nxt.plays[0][0] == prev.winner


@pytest.mark.parametrize(("declarer_tricks", "made"), [(6, True), (5, False), (10, True), (0, False)])
def test_r6_3_declarer_needs_six_tricks(declarer_tricks, made):
    s = scripted_lone(declarer=0, defender=1, declarer_tricks=declarer_tricks)
    deal = s.deal()
    assert deal.tricks[0] == declarer_tricks
    assert (deal.scores[0] > 0) == made
    assert deal.scores[0] == (10 if made else -10)


def test_r6_3_deal_over_after_ten_tricks():
    s = scripted_three(declarer=0, split=(6, 2, 2))
    deal = s.deal()
    assert deal.is_over and deal.phase is Phase.OVER
    assert deal.to_move is None
    assert deal.legal_actions() == ()
    err = assert_illegal(deal, "AS", "R6.3", "deal-over")
    assert str(err) == "R6.3: the deal is over"


# --- one home for R6.2: the engine's fast paths agree with tricks.playable ----------------------


def _random_play_states(seed: int, deals: int):
    import random

    rng = random.Random(seed)
    for k in range(deals):
        deal = Deal.random(rng, dealer=k % 3)
        while not deal.is_over:
            yield deal
            deal.apply(rng.choice(deal.legal_actions()))


def test_r6_2_fast_paths_agree_with_playable():
    """legal_actions, legal_play_mask and apply's inlined follow-suit check give exactly
    the cards of tricks.playable, the one statement of R6.2."""
    from paston.cards import ALL_CARDS, CardSet
    from paston.errors import IllegalActionError
    from paston.tricks import playable

    checked = 0
    for deal in _random_play_states(62, 300):
        if deal.phase is not Phase.PLAY:
            continue
        seat = deal.to_move
        trick = deal.current_trick
        lead = trick[0][1].suit if trick else None
        allowed = playable(deal.hand_mask(seat), lead, deal.trump_suit)
        assert deal.legal_play_mask() == allowed
        assert CardSet(a.cards[0] for a in deal.legal_actions()).mask == allowed
        count = deal.event_count
        for card in ALL_CARDS:
            # a refused play leaves the state as it was, so only accepted ones need a copy
            if allowed & card.bit:
                deal.clone().apply(Action.play(card))
            else:
                with pytest.raises(IllegalActionError):
                    deal.apply(Action.play(card))
                assert deal.event_count == count, (card, deal)
        checked += 1
    assert checked > 3000


def test_r6_2_every_refusal_is_explained_and_changes_nothing():
    """For every action id in every state: apply accepts exactly legal_actions(); any
    other action raises the error legality.why_illegal gives, and the state is unchanged.

    The refused actions are applied to the state itself (a refusal must leave it as it
    was, which is checked after each); only the accepted ones are tried on a copy."""
    from paston.actions import NUM_ACTION_IDS
    from paston.errors import IllegalActionError

    actions = []
    for aid in range(NUM_ACTION_IDS):
        try:
            actions.append(Action.from_id(aid))
        except ValueError:
            continue
    for deal in _random_play_states(7, 40):
        legal = set(deal.legal_actions())
        hands = [deal.hand_mask(s) for s in range(3)]
        before = (deal.phase, deal.to_move, deal.events, deal.tricks, hands)
        count = deal.event_count
        for action in actions:
            error = deal.why_illegal(action)
            assert (error is None) == (action in legal), (action, deal)
            if error is None:
                deal.clone().apply(action)
                continue
            with pytest.raises(IllegalActionError) as info:
                deal.apply(action)
            assert str(info.value) == str(error)
            assert deal.event_count == count and deal.to_move == before[1], action
        assert (deal.phase, deal.to_move, deal.events, deal.tricks) == before[:4]
        assert [deal.hand_mask(s) for s in range(3)] == before[4]


def test_r6_3_engine_winners_agree_with_trick_winner():
    """The engine's incremental winner (in Deal._play) is the one of tricks.trick_winner."""
    import random

    from paston.tricks import trick_winner

    rng = random.Random(63)
    checked = 0
    for k in range(300):
        deal = Deal.random(rng, dealer=k % 3)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        for trick in deal.completed_tricks:
            cards = [c.index for _, c in trick.plays]
            assert trick.plays[trick_winner(cards, deal.trump_suit)][0] == trick.winner
            checked += 1
    assert checked > 1000
