"""The contract every computer player keeps: legal actions only, decisions from the view
alone (never the hidden cards), reproducible with a seed, named players, and a clean
error when there is nothing to do."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from paston.actions import Action, Kind
from paston.bots import PLAYER_NAMES, Player, RandomPlayer, make_player
from paston.bots.heuristic import HeuristicPlayer
from paston.bots.knowledge import Knowledge
from paston.bots.pimc import DEFAULT_LEVEL, PimcPlayer
from paston.bots.runner import seeded_game
from paston.cards import JACK_OF_SPADES, SEVEN_OF_SPADES
from paston.deal import Deal, Phase
from paston.errors import IllegalActionError, ParseError
from paston.match import Match
from paston.record import to_record
from paston.rules import Rules

BOTS = ("random", "heuristic", "pimc:1")

# Every combination of the switches that change a single deal (R3.4, R7.3, R7.7).
VARIANTS = tuple(
    Rules(lone_defender=lone, surrender_bonus=bonus, all_pass_declarer=all_pass)
    for lone in ("graded", "flat")
    for bonus in (2, 0)
    for all_pass in ("spade-jack", "first-bidder")
)


def random_deal(seed: int) -> Deal:
    """A shuffled deal; the seed also picks the rule variant, the dealer and whether it is
    the first deal of a game (R1.5, R2.1 and the first-bidder variant of R3.4 differ)."""
    return Deal.random(
        random.Random(seed),
        dealer=seed // 8 % 3,
        rules=VARIANTS[seed % len(VARIANTS)],
        first_deal=seed // 24 % 2 == 0,
    )


# --- (a) only legal actions --------------------------------------------------------------------
@pytest.mark.parametrize(("name", "deals"), [("random", 3000), ("heuristic", 3000), ("pimc:1", 24)])
def test_bots_only_return_legal_actions(name: str, deals: int) -> None:
    """Over many deals, in every rule variant and phase, the bot's choice is one of the
    legal actions. The bot holds one or all seats (random players fill the others, so
    the bot meets bids, surrenders, lone and two-defender play it would not choose)."""
    seen: Counter[tuple[Phase, int]] = Counter()
    kinds: Counter[Kind] = Counter()
    for seed in range(deals):
        deal = random_deal(seed)
        mine = {0, 1, 2} if seed % 2 == 0 and name != "pimc:1" else {seed // 2 % 3}
        players: list[Player] = [
            make_player(name, seed=seed * 3 + s) if s in mine else RandomPlayer(seed=seed * 3 + s)
            for s in range(3)
        ]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            action = players[seat].choose(view)
            assert isinstance(action, Action)
            legal = deal.legal_actions()
            assert action in legal, f"{name} chose {action} (seed {seed}); legal: {[str(a) for a in legal]}"
            assert deal.why_illegal(action, seat) is None
            if seat in mine:
                seen[view.phase, len(view.defenders)] += 1
                kinds[action.kind] += 1
            deal.apply(action, seat)
    # every phase came up for the bot, and it played cards with one and with two defenders
    for phase in (Phase.AUCTION, Phase.DISCARD, Phase.TRUMP, Phase.DEFENCE):
        assert seen[phase, 0], (phase, seen)
    assert seen[Phase.PLAY, 1] and seen[Phase.PLAY, 2], seen
    assert kinds[Kind.BID] and kinds[Kind.PASS] and kinds[Kind.PLAY] and kinds[Kind.TRUMP], kinds


def test_bots_play_whole_games_in_every_preset() -> None:
    """Whole games (dealer rotation, all-pass declarers after the first deal) stay legal:
    Match.apply would raise on an illegal action."""
    seating = ["heuristic", "random", "heuristic"]
    for i, preset in enumerate(("spanish", "flat", "no-surrender-bonus", "preference", "short")):
        names = seating[i % 3 :] + seating[: i % 3]
        match = seeded_game(f"legal-{preset}", names, rules=Rules.preset(preset), max_deals=40)
        assert match.completed_deals >= 1
        for deal in match.deals:
            assert deal.is_over


# --- (b) decisions depend on the view only ---------------------------------------------------------
def play_until(seed: int, stop: Callable[[Deal], bool]) -> tuple[Deal, list[Action]] | None:
    """Play a deal of ``random_deal(seed)`` with heuristic players until ``stop`` holds
    (``None`` if the deal ends first)."""
    deal = random_deal(seed)
    players = [HeuristicPlayer(seed=s) for s in range(3)]
    actions: list[Action] = []
    while not deal.is_over:
        if stop(deal):
            return deal, actions
        seat = deal.to_move
        assert seat is not None
        action = players[seat].choose(deal.view(seat))
        actions.append(action)
        deal.apply(action)
    return None


def _dealt_place(deal: Deal, card: int) -> int:
    """Where a card was dealt: seat 0-2, or 3 for the prikup."""
    for seat in range(3):
        if deal.dealt[seat] >> card & 1:
            return seat
    assert deal.prikup >> card & 1
    return 3


def hidden_state(deal: Deal) -> tuple[object, ...]:
    """Where every card lies now: the hands, the prikup not yet taken, the discard."""
    talon = deal.prikup if deal.phase is Phase.AUCTION else 0
    return tuple(deal.hand_mask(s) for s in range(3)), talon, deal.discard


def twin(deal: Deal, actions: list[Action], viewer: int) -> Deal | None:
    """Another deal with different hidden cards that gives ``viewer`` exactly the same view.

    Two cards ``viewer`` cannot see, dealt to two different places, are exchanged in the
    deck and the same public actions are replayed (a hidden discard is mapped through
    the exchange). Once cards have been played only cards of one suit are exchanged, so
    every shown void and every replayed play stays legal. J♠ and 7♠ stay put: they decide
    the first bidder (R2.1) and the all-pass declarer (R3.4).
    """
    # what the seat may know by the rules (R4.1, R5.2), from the full state, not from the view
    known = deal.hand_mask(viewer) | deal.played_mask
    if deal.declarer == viewer:
        known |= deal.prikup | deal.discard.mask
    hidden = [c for c in range(32) if not known >> c & 1 and c not in (JACK_OF_SPADES, SEVEN_OF_SPADES)]
    played = deal.played_mask != 0
    for i, c1 in enumerate(hidden):
        for c2 in hidden[i + 1 :]:
            if played and c1 >> 3 != c2 >> 3:
                continue
            if _dealt_place(deal, c1) == _dealt_place(deal, c2):
                continue
            swap = {c1: c2, c2: c1}
            deck = [swap.get(c, c) for c in deal.deck]
            other = Deal(deck, dealer=deal.dealer, rules=deal.rules, first_deal=deal.first_deal)
            if other.redeal is not None:
                continue
            for action in actions:
                if action.kind is Kind.DISCARD:
                    a, b = (swap.get(c.index, c.index) for c in action.cards)
                    action = Action.discard(a, b)
                other.apply(action)
            if hidden_state(other) != hidden_state(deal):
                return other
    return None


def assert_same_choice(name: str, deal: Deal, actions: list[Action], seed: int) -> Action:
    seat = deal.to_move
    assert seat is not None
    other = twin(deal, actions, seat)
    assert other is not None, "no twin deal found"
    view, other_view = deal.view(seat), other.view(seat)
    assert view == other_view  # the test means something only if the views are equal
    assert hidden_state(other) != hidden_state(deal)  # … and the hidden cards differ
    assert Knowledge.from_view(view) == Knowledge.from_view(other_view)
    first = make_player(name, seed=seed).choose(view)
    second = make_player(name, seed=seed).choose(other_view)
    assert first is second, (name, deal.phase, str(first), str(second))
    return first


def _at(phase: Phase, plays: int = 0) -> Callable[[Deal], bool]:
    def stop(deal: Deal) -> bool:
        if deal.phase is not phase:
            return False
        if phase is Phase.PLAY:
            return deal.played_mask.bit_count() >= plays
        return True

    return stop


PHASES = [
    (Phase.AUCTION, 0),
    (Phase.DISCARD, 0),
    (Phase.TRUMP, 0),
    (Phase.DEFENCE, 0),
    (Phase.PLAY, 0),
    (Phase.PLAY, 7),
]


def test_heuristic_decides_from_the_view_only_at_every_step() -> None:
    """At every decision of many deals the heuristic chooses the same action in a twin
    deal with other hidden cards and the same view."""
    checked: Counter[Phase] = Counter()
    for seed in range(40):
        deal = random_deal(seed)
        players = [HeuristicPlayer(seed=s) for s in range(3)]
        actions: list[Action] = []
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            if twin(deal, actions, seat) is not None:
                assert_same_choice("heuristic", deal, actions, seed)
                checked[deal.phase] += 1
            action = players[seat].choose(deal.view(seat))
            actions.append(action)
            deal.apply(action)
    for phase in (Phase.AUCTION, Phase.DISCARD, Phase.TRUMP, Phase.DEFENCE):
        assert checked[phase] >= 5, checked
    assert checked[Phase.PLAY] >= 200, checked


@pytest.mark.parametrize(("phase", "plays"), PHASES, ids=[f"{p.name}-{n}" for p, n in PHASES])
def test_pimc_decides_from_the_view_only(phase: Phase, plays: int) -> None:
    """pimc:1 samples worlds from the view: with the same seed it picks the same action
    in two deals that differ only in cards its seat cannot see."""
    done = 0
    for seed in range(100):
        found = play_until(seed, _at(phase, plays))
        if found is None:
            continue
        deal, actions = found
        if len(deal.legal_actions()) < 2:
            continue
        assert_same_choice("pimc:1", deal, actions, seed)
        done += 1
        if done == 2:
            return
    pytest.fail(f"no position found at {phase.name}")


def test_twin_deals_really_differ_for_the_other_seats() -> None:
    """Sanity of the construction: the exchanged cards are visible to some other seat,
    whose view does change."""
    found = [f for f in (play_until(seed, _at(Phase.PLAY, 4)) for seed in range(10)) if f is not None]
    assert found
    deal, actions = found[0]
    seat = deal.to_move
    assert seat is not None
    other = twin(deal, actions, seat)
    assert other is not None
    assert deal.view(seat) == other.view(seat)
    assert any(deal.view(s) != other.view(s) for s in range(3) if s != seat)


# --- (c) reproducible ---------------------------------------------------------------------------
def decisions(name: str, seed: int, deals: int) -> list[tuple[int, Action]]:
    """Every decision of ``deals`` deals of one game (the deck comes from a fixed source)."""
    match = Match(first_dealer=1, rng=random.Random(99))
    players = [make_player(name, seed=seed + s) for s in range(3)]
    out: list[tuple[int, Action]] = []
    while not match.is_over and match.completed_deals < deals:
        seat = match.to_move
        assert seat is not None
        action = players[seat].choose(match.view(seat))
        out.append((seat, action))
        match.apply(action, seat)
    return out


@pytest.mark.parametrize(("name", "deals"), [("random", 1000), ("heuristic", 1000), ("pimc:1", 1)])
def test_seeded_bots_are_reproducible(name: str, deals: int) -> None:
    """Same seed, same decisions: over a whole game (to 121) for the fast bots, over a
    deal for pimc:1."""
    first = decisions(name, 7, deals)
    assert len(first) > 20
    assert decisions(name, 7, deals) == first


def test_random_player_depends_on_its_seed() -> None:
    assert decisions("random", 1, 1) != decisions("random", 2, 1)


def test_seeded_games_with_bots_are_reproducible() -> None:
    a = seeded_game("repro", ["heuristic", "random", "pimc:1"], max_deals=1)
    b = seeded_game("repro", ["heuristic", "random", "pimc:1"], max_deals=1)
    assert to_record(a) == to_record(b)


# --- (d) names ----------------------------------------------------------------------------------
def test_make_player_parses_names() -> None:
    strong = make_player("PIMC:2", seed=1)
    assert isinstance(strong, PimcPlayer) and strong.level == 2
    default = make_player("pimc")
    assert isinstance(default, PimcPlayer) and default.level == DEFAULT_LEVEL == 3
    assert isinstance(make_player("heuristic"), HeuristicPlayer)
    assert isinstance(make_player(" Random "), RandomPlayer)
    for level in range(1, 6):
        bot = make_player(f"pimc:{level}")
        assert isinstance(bot, PimcPlayer) and bot.level == level
    for name in PLAYER_NAMES:
        bot = make_player(name, seed=0)
        assert isinstance(bot, Player)
        assert bot.name == name


@pytest.mark.parametrize(
    "name", ["pimc:9", "pimc:0", "pimc:x", "alpha", "random:2", "heuristic:1", "", "pimc 2", "pimc:1:2"]
)
def test_make_player_rejects_bad_names(name: str) -> None:
    with pytest.raises(ParseError) as info:
        make_player(name)
    assert info.value.code == "parse-player"
    assert "pimc" in str(info.value)  # the message lists what is known


def test_pimc_level_out_of_range() -> None:
    with pytest.raises(ValueError):
        PimcPlayer(level=6)


# --- (e) nothing to do ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", BOTS)
def test_bot_without_legal_actions_raises(name: str) -> None:
    bot = make_player(name, seed=0)
    deal = random_deal(1)
    seat = deal.to_move
    assert seat is not None
    for other in range(3):
        if other == seat:
            continue
        view = deal.view(other)
        assert view.legal_actions == ()
        with pytest.raises(IllegalActionError):
            bot.choose(view)
    with pytest.raises(IllegalActionError):
        bot.choose(deal.public_view())
    # a finished deal
    act_deal = random_deal(3)
    players = [HeuristicPlayer(seed=s) for s in range(3)]
    while not act_deal.is_over:
        s = act_deal.to_move
        assert s is not None
        act_deal.apply(players[s].choose(act_deal.view(s)))
    for s in range(3):
        with pytest.raises(IllegalActionError):
            bot.choose(act_deal.view(s))


def test_registry_levels_are_the_levels_pimc_knows() -> None:
    from paston.bots.pimc import LEVELS
    from paston.bots.registry import PLAYERS_BY_NAME, player_choices

    info = PLAYERS_BY_NAME["pimc"]
    assert tuple(LEVELS) == info.levels and info.default_level in LEVELS
    for choice in player_choices():
        assert make_player(choice, seed=1).choose  # every listed choice makes a player
