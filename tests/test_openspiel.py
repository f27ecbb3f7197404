"""The OpenSpiel game ``python_paston``: OpenSpiel's own checks, the frozen playthroughs,
the deal as chance, hidden information, serialization.

Regenerate the playthroughs after an intended change with
``PASTON_REGOLD=1 pytest tests/test_openspiel.py -k playthrough`` and review the diff.
"""

from __future__ import annotations

import os
import pickle
import random
import re
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import generate_playthrough
from open_spiel.python.observation import make_observation

from paston.cards import SEVEN_OF_SPADES
from paston.env import openspiel
from paston.env.spiel_encoding import (
    action_index,
    index_action,
    write_info_state,
    write_observation,
)

GOLDEN_DIR = Path(__file__).parent / "golden"
PLAYTHROUGHS = {
    "openspiel_python_paston.txt": ("python_paston", 7),
    "openspiel_python_paston_game.txt": ("python_paston(target=30,whole_game=True)", 3),
}


def _game(params: str = "") -> object:
    return pyspiel.load_game(f"python_paston({params})" if params else "python_paston")


def _random_state(game: object, rng: random.Random, *, stop: float = 1.0) -> object:
    """A state reached by random play, stopped at a random decision with probability ``stop``."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(cards, probs)[0])
            continue
        if rng.random() < stop / 40:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    return state


# --- OpenSpiel's own checks -------------------------------------------------------------
@pytest.mark.parametrize(
    "params",
    [
        "",
        "dealer=2,first_deal=True",
        "lone_defender=flat,surrender_bonus=0,all_pass_declarer=first-bidder",
    ],
)
def test_random_sim_test_one_deal(params: str) -> None:
    pyspiel.random_sim_test(_game(params), num_sims=20, serialize=True, verbose=False)


def test_random_sim_test_whole_game() -> None:
    game = _game("whole_game=True,target=40,max_deals=12,second_dealer=rotate")
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def _playthrough_actions(text: str) -> tuple[str, list[int]]:
    game = re.search(r"^game: (.*)$", text, re.MULTILINE)
    assert game is not None
    return game.group(1), [int(a) for a in re.findall(r"^action: (-?\d+)$", text, re.MULTILINE)]


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_frozen_playthrough(name: str) -> None:
    """OpenSpiel's playthrough (every string, tensor, legal action and return along one
    seeded game) regenerated from the file's actions equals the file."""
    path = GOLDEN_DIR / name
    game_string, seed = PLAYTHROUGHS[name]
    if os.environ.get("PASTON_REGOLD"):
        path.write_text(generate_playthrough.playthrough(game_string, None, seed=seed), encoding="utf-8")
    original = path.read_text(encoding="utf-8")
    found_game, actions = _playthrough_actions(original)
    assert found_game == game_string
    assert generate_playthrough.playthrough(game_string, actions) == original


def test_the_game_is_registered_with_its_type() -> None:
    game = _game()
    kind = game.get_type()
    assert kind.short_name == "python_paston"
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == 3
    assert game.num_distinct_actions() == openspiel.ACTION_COUNT
    assert (game.min_utility(), game.max_utility()) == (-40.0, 320.0)
    assert "python_paston" in pyspiel.registered_names()


def test_bad_parameters_are_refused_with_their_name() -> None:
    with pytest.raises(Exception, match="dealer"):
        _game("dealer=5")
    with pytest.raises(Exception, match="lone_defender"):
        _game("lone_defender=steep")
    with pytest.raises(ValueError, match="colour"):
        openspiel.config_from_params({"colour": 1})


# --- the deal as chance (R1.2, R1.3) -------------------------------------------------------
def test_r1_2_the_first_chance_node_is_the_bottom_card_never_seven_of_spades() -> None:
    state = _game().new_initial_state()
    outcomes = state.chance_outcomes()
    assert SEVEN_OF_SPADES not in [c for c, _ in outcomes]
    assert len(outcomes) == 31
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


def test_r1_3_the_chance_outcomes_make_the_deck_dealt_by_r1_3() -> None:
    state = _game().new_initial_state()
    order = [5, *[c for c in range(32) if c != 5]]  # deck[31] = 5 first, then deck[0..30]
    for card in order:
        assert card in [c for c, _ in state.chance_outcomes()]
        state.apply_action(card)
    deal = state.table.deal
    assert deal.deck == (*[c for c in range(32) if c != 5], 5)
    assert not state.is_chance_node()


def _jack_seven_prikup_deck() -> list[int]:
    rest = [c for c in range(32) if c not in (0, 4)]  # all but 7S and JS
    return [*rest[:6], 4, 0, *rest[6:]]  # deck[6:8] is the prikup (R1.3)


def _deal(state: object, deck: list[int]) -> None:
    for card in (deck[31], *deck[:31]):
        state.apply_action(card)  # type: ignore[attr-defined]


def test_r1_5_a_void_first_deal_ends_the_one_deal_game_with_zero_returns() -> None:
    state = _game("first_deal=True").new_initial_state()
    _deal(state, _jack_seven_prikup_deck())
    assert state.is_terminal() and state.returns() == [0.0, 0.0, 0.0]
    assert "redeal jack-seven-prikup" in state.observation_string(1)


def test_r1_6_in_a_whole_game_a_void_deal_is_dealt_again_by_the_same_dealer() -> None:
    state = _game("whole_game=True,dealer=1").new_initial_state()
    _deal(state, _jack_seven_prikup_deck())
    assert state.is_chance_node() and len(state.chance_outcomes()) == 31
    _deal(state, [*range(1, 31), 0, 31])
    deal = state.table.deal
    assert deal.dealer == 1 and deal.first_deal and state.table.dealt_decks == 2


# --- actions, returns, hidden information ---------------------------------------------------
def test_legal_actions_are_the_engines_in_the_shared_numbering() -> None:
    rng = random.Random(11)
    game = _game()
    for _ in range(30):
        state = _random_state(game, rng)
        if state.is_terminal():
            assert state.legal_actions() == []
            continue
        engine = state.table.legal_actions()
        assert state.legal_actions() == sorted(action_index(a) for a in engine)
        assert [index_action(i) for i in state.legal_actions()] == sorted(engine, key=action_index)
        for i in state.legal_actions():
            assert state.action_to_string(state.current_player(), i) == str(index_action(i))


def test_r7_returns_are_the_deal_scores() -> None:
    rng = random.Random(5)
    game = _game()
    for _ in range(40):
        state = _random_state(game, rng, stop=0.0)
        assert state.is_terminal()
        deal = state.table.deal
        expected = deal.scores if deal.redeal is None else (0, 0, 0)
        assert state.returns() == [float(s) for s in expected]


def test_r8_a_whole_game_returns_the_totals_and_ends_at_the_target() -> None:
    rng = random.Random(8)
    game = _game("whole_game=True,target=30")
    for _ in range(3):
        state = _random_state(game, rng, stop=0.0)
        match = state.table.match
        assert state.returns() == [float(t) for t in match.totals]
        assert match.is_over or state.table.dealt_decks == 100


def _twin(state: object, seat: int, rng: random.Random) -> object | None:
    """The same moves from a deck in which two cards hidden from ``seat`` change places
    (``None`` when the moves are not legal there or the public story differs)."""
    table = state.table  # type: ignore[attr-defined]
    deal = table.deal
    hidden = [c for c in range(32) if not table.view(seat).known_cards().mask >> c & 1]
    if len(hidden) < 2:
        return None
    a, b = rng.sample(hidden, 2)
    chance = list(table.moves[:32])
    ia, ib = chance.index(a), chance.index(b)
    if 0 in (ia, ib) and SEVEN_OF_SPADES in (a, b):
        return None  # 7S may not go to the bottom
    chance[ia], chance[ib] = b, a
    twin = state.get_game().new_initial_state()  # type: ignore[attr-defined]
    try:
        for move in chance + [int(x) for x in state.history()[32:]]:  # type: ignore[attr-defined]
            twin.apply_action(move)
    except Exception:
        return None
    same_story = [(e.seat, e.action.kind) for e in twin.table.deal.events] == [
        (e.seat, e.action.kind) for e in deal.events
    ]
    if not same_story or twin.table.deal.redeal != deal.redeal or str(twin) == str(state):
        return None  # a different public story, or the same world
    return twin


def test_hidden_cards_change_no_tensor_and_no_string_of_the_seat() -> None:
    """Worlds that differ only in cards a seat cannot see give it the same observation and
    information state (tensors and strings)."""
    rng = random.Random(21)
    game = _game()
    info_state = pyspiel.IIGObservationType(perfect_recall=True)
    observers = [make_observation(game), make_observation(game, info_state)]
    compared = 0
    for _ in range(150):
        state = _random_state(game, rng)
        if state.is_terminal():
            continue
        seat = rng.randrange(3)
        twin = next((t for t in (_twin(state, seat, rng) for _ in range(8)) if t is not None), None)
        if twin is None:
            continue
        compared += 1
        for obs in observers:
            obs.set_from(state, seat)
            first = obs.tensor.copy()
            obs.set_from(twin, seat)
            assert np.array_equal(first, obs.tensor)
        assert state.observation_string(seat) == twin.observation_string(seat)
        assert state.information_state_string(seat) == twin.information_state_string(seat)
    assert compared > 50


# --- serialization -----------------------------------------------------------------------------
def test_serialization_and_pickle_give_the_same_state() -> None:
    rng = random.Random(3)
    game = _game("whole_game=True,target=30")
    for stop in (0.0, 0.5, 1.0):
        state = _random_state(game, rng, stop=stop)
        again = game.deserialize_state(state.serialize())
        assert str(again) == str(state) and again.history() == state.history()
        copy = pickle.loads(pickle.dumps(state))
        assert str(copy) == str(state) and copy.legal_actions() == state.legal_actions()
        _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert restored.information_state_string(0) == state.information_state_string(0)


def test_a_pickled_game_makes_the_same_states() -> None:
    game = _game("whole_game=True,target=30,lone_defender=flat")
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.config == game.config
    state = again.new_initial_state()
    state.apply_action(3)
    assert state.history() == [3]


def test_a_clone_is_independent() -> None:
    rng = random.Random(9)
    state = _random_state(_game(), rng, stop=1.0)
    while state.is_terminal():
        state = _random_state(_game(), rng, stop=1.0)
    before = str(state)
    child = state.child(state.legal_actions()[0])
    assert str(state) == before and str(child) != before


# --- worlds a seat cannot tell apart ------------------------------------------------------------
def test_resample_from_infostate_keeps_the_seats_information_and_draws_the_hidden_cards() -> None:
    rng = random.Random(17)
    info_state = make_observation(_game(), pyspiel.IIGObservationType(perfect_recall=True))
    differ = 0
    for params in ("", "whole_game=True,target=30"):
        game = _game(params)
        for _ in range(40):
            state = _random_state(game, rng)
            if state.is_terminal() or state.is_chance_node():
                continue
            seat = rng.randrange(3)
            other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.observation_string(seat) == state.observation_string(seat)
            if seat == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            if not params:
                info_state.set_from(state, seat)
                first = info_state.tensor.copy()
                info_state.set_from(other, seat)
                assert np.array_equal(first, info_state.tensor)
            differ += str(other) != str(state)
    assert differ > 20


def test_openspiel_ismcts_plays_python_paston() -> None:
    """OpenSpiel's Python information-set MCTS runs on the game: it draws worlds with
    ``resample_from_infostate`` and plays deals to their end."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = _game()
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 30, random_state=np.random.RandomState(1))
    bots = [bot, pyspiel.make_uniform_random_bot(1, 1), pyspiel.make_uniform_random_bot(2, 2)]
    low, high = game.min_utility(), game.max_utility()
    for seed in range(3):
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        assert len(returns) == 3 and all(low <= r <= high for r in returns)


def test_openspiels_rl_environment_runs_python_paston() -> None:
    """OpenSpiel's ``rl_environment`` (the loop of its DQN, NFSP and policy-gradient
    examples) plays the game: information-state tensors in, the deal's scores out."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment("python_paston")
    assert env.observation_spec()["info_state"] == (openspiel.INFO_STATE_SIZE,)
    assert env.action_spec()["num_actions"] == openspiel.ACTION_COUNT
    rng = np.random.RandomState(0)
    for _ in range(3):
        step = env.reset()
        while not step.last():
            seat = step.observations["current_player"]
            step = env.step([rng.choice(step.observations["legal_actions"][seat])])
        assert step.rewards == env.get_state.returns()


@pytest.mark.parametrize(
    "params", ["", "whole_game=True,target=40", "first_deal=True,lone_defender=flat,surrender_bonus=0"]
)
def test_the_tensors_kept_action_by_action_equal_those_read_from_the_views(params: str) -> None:
    """A state played forward keeps a ``DealEncoder``; a clone reads its views: both give
    every seat the same tensors at every state."""
    game = _game(params)
    rng = random.Random(6)
    sizes = (openspiel.OBSERVATION_SIZE, openspiel.INFO_STATE_SIZE)
    writers = (write_observation, write_info_state)
    checked = 0

    def check(state: object) -> None:
        table = state.table  # type: ignore[attr-defined]
        assert table.encoder is not None or table.deal is None
        copy = table.clone()
        assert copy.encoder is None
        for seat in range(3):
            for size, write in zip(sizes, writers, strict=True):
                kept, read = np.ones(size, np.float32), np.ones(size, np.float32)
                write(table, seat, kept)
                write(copy, seat, read)
                assert np.array_equal(kept, read)

    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                if not state.table.deck:
                    check(state)
                    checked += 1
                cards, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(cards, probs)[0])
            else:
                check(state)
                checked += 1
                state.apply_action(rng.choice(state.legal_actions()))
        check(state)
    assert checked > 200


def test_the_information_state_tensor_holds_what_the_string_holds() -> None:
    """Perfect recall within a deal: over many plays of a few decks, two states give a seat
    the same information-state tensor exactly when they give it the same string."""
    game = _game()
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(4)
    by_string: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    for deck_seed in range(4):
        deck = list(range(32))
        random.Random(deck_seed).shuffle(deck)
        if deck[31] == SEVEN_OF_SPADES:
            deck[30], deck[31] = deck[31], deck[30]
        for _ in range(15):
            state = game.new_initial_state()
            _deal(state, deck)
            while not state.is_terminal():
                for seat in range(3):
                    text = state.information_state_string(seat)
                    observer.set_from(state, seat)
                    tensor = observer.tensor.tobytes()
                    assert by_string.setdefault(text, tensor) == tensor
                    assert by_tensor.setdefault(tensor, text) == text
                state.apply_action(rng.choice(state.legal_actions()))
    assert len(by_string) > 1000


def test_the_speed_loops_of_env_speed_run() -> None:
    """benchmarks/env_speed.py's OpenSpiel loops play (a tiny run; the figures come from
    the script)."""
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "env_speed.py"
    spec = importlib.util.spec_from_file_location("env_speed", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))  # it imports its PettingZoo loop from envkit.py
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    for name in ("openspiel-paston", "openspiel-skat"):
        decisions, elapsed = module.LOOPS[name](0.01, 0)
        assert decisions > 20 and elapsed > 0
