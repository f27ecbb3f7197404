"""Computer players. A player gets only a seat's view and returns a legal action.

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> bot = make_player("random", seed=5)
>>> bot.choose(deal.view(deal.to_move)) in deal.legal_actions()
True
"""

from paston.bots.base import PLAYER_NAMES, PLAYERS, Player, PlayerInfo, make_player, player_choices
from paston.bots.random_player import RandomPlayer

__all__ = ["PLAYERS", "PLAYER_NAMES", "Player", "PlayerInfo", "RandomPlayer", "make_player", "player_choices"]
