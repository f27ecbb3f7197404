"""Paston as an OpenSpiel game: importing this module registers ``python_paston``.

>>> import pyspiel
>>> import paston.env.openspiel
>>> game = pyspiel.load_game("python_paston")
>>> game.num_players(), game.max_chance_outcomes(), game.num_distinct_actions() == ACTION_COUNT
(3, 32, True)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())  # the bottom card first: never 7S
(True, 31)

Sequential, explicit chance (one chance node per deck position, see
:mod:`paston.env.spiel_table`), imperfect information, three players, general sum (R7.8:
a deal's scores need not sum to zero), terminal rewards: the R7 scores of one deal, or
with ``whole_game=True`` the totals of a game played to the target (R8). The player
actions are :mod:`paston.encoding`'s numbering, which every wrapper shares.

Parameters: ``dealer`` (0), ``first_deal`` (false: the dealer's left bids first, R2.3),
``whole_game`` (false), ``max_deals`` (100, a whole game's bound on dealt decks),
and the rule switches ``lone_defender``, ``surrender_bonus``, ``all_pass_declarer``,
``second_dealer``, ``target`` (see :mod:`paston.rules`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from paston.actions import Action
from paston.env.spiel_encoding import (
    ACTION_COUNT,
    INFO_STATE_SIZE,
    OBSERVATION_SIZE,
    action_index,
    index_action,
    write_info_state,
    write_observation,
)
from paston.env.spiel_resample import resample
from paston.env.spiel_table import SpielConfig, SpielTable
from paston.env.spiel_text import information_text, observation_text, state_text
from paston.rules import Rules

GAME_NAME = "python_paston"

_RULE_DEFAULTS = Rules().to_dict()
_PARAMETERS: dict[str, Any] = {
    "dealer": 0,
    "first_deal": False,
    "whole_game": False,
    "max_deals": 100,
    **_RULE_DEFAULTS,
}

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Paston (Armenian Preference)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=3,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
    provides_factored_observation_string=True,
)


def config_from_params(params: dict[str, Any]) -> SpielConfig:
    """The game's :class:`SpielConfig` from OpenSpiel parameters (absent ones take defaults)."""
    unknown = sorted(set(params) - set(_PARAMETERS))
    if unknown:
        raise ValueError(f"python_paston has no parameter {', '.join(unknown)}")
    p = {**_PARAMETERS, **params}
    rules = Rules.from_dict({k: p[k] for k in _RULE_DEFAULTS})
    return SpielConfig(
        rules=rules,
        dealer=p["dealer"],
        first_deal=bool(p["first_deal"]),
        whole_game=bool(p["whole_game"]),
        max_deals=p["max_deals"],
    )


class PastonGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game: its type, sizes and parameters, and new states."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        config = config_from_params(given)
        low, high = config.utility_range
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=32,
            num_players=3,
            min_utility=float(low),
            max_utility=float(high),
            max_game_length=config.max_decisions,
        )
        super().__init__(GAME_TYPE, info, {**_PARAMETERS, **given})
        self._config = config

    @property
    def config(self) -> SpielConfig:
        """The parameters as a :class:`SpielConfig` (read again from the game's parameters
        when OpenSpiel unpickled the game without calling ``__init__``)."""
        try:
            return self.__dict__["_config"]  # type: ignore[no-any-return]
        except KeyError:
            self._config = config_from_params(dict(self.get_parameters()))
            return self._config

    def new_initial_state(self) -> PastonState:
        """A game before its first chance node."""
        return PastonState(self)

    def max_chance_nodes_in_history(self) -> int:
        """32 chance nodes per dealt deck."""
        return self.config.max_chance_nodes

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> PastonObserver:
        """An observer for one of OpenSpiel's observation types (the default: the
        observation; ``perfect_recall=True``: the information state)."""
        return PastonObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class PastonState(pyspiel.State):  # type: ignore[misc]
    """One state: a :class:`SpielTable` (cloned with the engine's cheap clones; pickled
    as its list of moves)."""

    def __init__(self, game: PastonGame) -> None:
        super().__init__(game)
        self.table = SpielTable(game.config)

    def current_player(self) -> int:
        """The seat to decide, chance while a deck is dealt, or terminal."""
        t = self.table
        seat = t.to_move
        if seat is not None:
            return seat
        return _TERMINAL if t.is_over else _CHANCE

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(action_index(a) for a in self.table.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next deck position's cards, equally likely."""
        cards = self.table.chance_cards()
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def _apply_action(self, action: int) -> None:
        if self.table.is_chance:
            self.table.apply_chance(int(action))
        else:
            self.table.apply(index_action(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {_CARD_CODES[action]}"
        return str(index_action(int(action)))

    def is_terminal(self) -> bool:
        """True when the deal (or the game) is over."""
        return self.table.is_over

    def returns(self) -> list[float]:
        """The R7 scores of the deal (a game's totals) at the end; zeros before."""
        return [float(x) for x in self.table.returns()]

    def __str__(self) -> str:
        return state_text(self.table)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> PastonState:
        """A state ``player_id`` cannot tell from this one, the hidden cards drawn anew
        (:mod:`paston.env.spiel_resample`; for OpenSpiel's Python ``ismcts``)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        table = resample(self.table, player_id, rng)
        state = PastonState(self.get_game())
        for move in table.moves:
            state.apply_action(move if state.is_chance_node() else action_index(Action.from_id(move)))
        return state


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_CARD_CODES = tuple(f"{'789TJQKA'[c & 7]}{'SCDH'[c >> 3]}" for c in range(32))


class PastonObserver:
    """OpenSpiel's Python observer: a flat float32 ``tensor`` (with ``dict`` views of
    its parts) and strings, for the observation types OpenSpiel asks for."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"python_paston's observer takes no parameters, not {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        full = self.public and self.private
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if full:
            size = INFO_STATE_SIZE if self.perfect_recall else OBSERVATION_SIZE
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"info_state" if self.perfect_recall else "observation": self.tensor}

    def set_from(self, state: PastonState, player: int) -> None:
        """Write ``player``'s observation (or information state) of ``state`` into ``tensor``."""
        if self.tensor is None:
            return
        if self.perfect_recall:
            write_info_state(state.table, player, self.tensor)
        else:
            write_observation(state.table, player, self.tensor)

    def string_from(self, state: PastonState, player: int) -> str:
        """``player``'s observation (or information state) of ``state`` as text."""
        make = information_text if self.perfect_recall else observation_text
        return make(state.table, player, public=self.public, private=self.private)


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, PastonGame)
