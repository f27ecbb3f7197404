"""The contract every computer player keeps: legal actions only, decisions from the view
alone (never the hidden cards), reproducible with a seed, named players, and a clean
error when there is nothing to do."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from tests.bots_helpers import PHASES, _at, assert_same_choice, play_until, random_deal, twin

from paston.actions import Action, Kind
from paston.bots import PLAYER_NAMES, Player, RandomPlayer, make_player
from paston.bots.heuristic import HeuristicPlayer
from paston.bots.pimc import DEFAULT_LEVEL, PimcPlayer
from paston.bots.runner import seeded_game
from paston.deal import Phase
from paston.errors import IllegalActionError, ParseError
from paston.match import Match
from paston.record import to_record
from paston.rules import Rules

BOTS = ("random", "heuristic", "pimc:1")


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
