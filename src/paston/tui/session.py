"""A game in progress for a screen: the match, the people's seats, the computer players,
the deck source and the file the record is saved to. No drawing here; the full-screen
app (:mod:`paston.tui.table_app`) asks it for a seat's view and hands it the moves.

>>> import random
>>> from pathlib import Path
>>> from tempfile import TemporaryDirectory
>>> from paston.bots import make_player
>>> from paston.match import Match
>>> with TemporaryDirectory() as folder:
...     match = Match(first_dealer=0, seats=("Ana", "random (1)", "random (2)"))
...     bots = {1: make_player("random", seed=1), 2: make_player("random", seed=2)}
...     game = GameSession(match, {0}, bots, Path(folder) / "g.json", random.Random(5))
...     game.deal_on()
...     while game.waiting_for is not None and game.waiting_for not in game.people:
...         _ = game.computer_move()
...     game.waiting_for in game.people or game.match.is_over
True
"""

from __future__ import annotations

import random
import re
from collections.abc import Collection
from pathlib import Path

from paston.actions import Action
from paston.bots import Player
from paston.dealing import shuffled_deck
from paston.errors import IllegalActionError
from paston.match import Match
from paston.record import dumps, read_record, to_record
from paston.views import DealView

__all__ = ["GameSession", "printable"]

#: Characters that would steer the terminal or reorder the line: controls, bidi overrides.
_STEERING = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(name: str, limit: int = 40) -> str:
    r"""A name as the screen shows it: characters that steer the terminal or the text's
    direction become ``�``, and a very long name is cut (``…``).

    >>> printable("Ana\x1b[2J"), printable("\u202eanA"), printable("x" * 50)[-3:]
    ('Ana�[2J', '�anA', 'xx…')
    """
    shown = _STEERING.sub("\ufffd", name)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


class GameSession:
    """People at ``people`` (one, or two or three at one keyboard) against the computer
    players of the other seats. Each person sees only their own seat's view; the
    computer players get their seat's view, never the deal.

    The session deals its own decks from ``deck_rng`` (R1.2) whenever the match needs
    one, so a new game and a resumed one go on the same way, and it saves the record
    (atomically) after each deal and when asked.
    """

    def __init__(
        self,
        match: Match,
        people: Collection[int],
        bots: dict[int, Player],
        out: Path,
        deck_rng: random.Random,
    ) -> None:
        if set(people) | set(bots) != {0, 1, 2} or set(people) & set(bots):
            raise ValueError(
                f"each seat is a person or a computer player: people {sorted(people)}, bots {sorted(bots)}"
            )
        self.match = match
        self.people = frozenset(people)
        self.bots = bots
        self.out = out
        self.deck_rng = deck_rng
        if self.may_undo:
            match.undo_allowed = True

    @property
    def may_undo(self) -> bool:
        """Undo is for one person against computer players (with more people one would take
        back what another saw)."""
        return len(self.people) == 1

    def undo(self) -> bool:
        """Take back the person's last move of the deal in progress, and the computer
        players' moves after it; ``False`` (nothing changed) when there is none. The
        record then holds the deal without them (and says undo was allowed)."""
        match = self.match
        if not self.may_undo or not match.deals or match.deals[-1].is_over:
            return False
        (person,) = self.people
        events = match.deals[-1].events
        mine = [i for i, (seat, _) in enumerate(events) if seat == person]
        if not mine:
            return False
        record = to_record(match)
        record["deals"][-1]["actions"] = record["deals"][-1]["actions"][: mine[-1]]
        rebuilt, _ = read_record(record)
        rebuilt.undo_allowed = True
        self.match = rebuilt
        self.save()
        return True

    @property
    def names(self) -> tuple[str, str, str]:
        """The players' names as the screen shows them (:func:`printable`)."""
        a, b, c = (printable(n) for n in self.match.seats)
        return a, b, c

    @property
    def waiting_for(self) -> int | None:
        """The seat to move, or ``None`` when the game is over."""
        return None if self.match.is_over else self.match.to_move

    def deal_on(self) -> None:
        """Deal (and redeal) until a deal waits for an action or the game is over."""
        while self.match.needs_deck:
            self.match.deal_next(shuffled_deck(self.deck_rng))

    def view(self, seat: int) -> DealView:
        """What ``seat`` sees of the current deal, with the game's totals."""
        return self.match.view(seat)

    def play(self, seat: int, action: Action) -> int:
        """A person's move; returns the deal's index. An illegal one raises
        :class:`IllegalActionError` (naming the rule) and changes nothing."""
        if seat not in self.people:
            raise ValueError(f"seat {seat} is a computer player's")
        error = self.match.why_illegal(action, seat)
        if error is not None:
            raise error
        return self._apply(seat, action)

    def computer_move(self) -> tuple[int, Action, int]:
        """The computer player to move chooses from its own view and moves: its seat, the
        action and the deal's index."""
        seat = self.match.to_move
        if seat is None or seat not in self.bots:
            raise ValueError("no computer player is to move")
        action = self.bots[seat].choose(self.match.view(seat))
        return seat, action, self._apply(seat, action)

    def _apply(self, seat: int, action: Action) -> int:
        index = len(self.match.deals) - 1
        self.match.apply(action, seat)
        if self.match.deals[index].is_over:
            self.save()
        return index

    def save(self) -> None:
        """Write the record so far (to a temporary file first: a crash leaves the old one)."""
        tmp = self.out.with_name(self.out.name + ".tmp")
        tmp.write_text(dumps(self.match, indent=2) + "\n", encoding="utf-8")
        tmp.replace(self.out)

    def check(self, seat: int, action: Action) -> IllegalActionError | None:
        """Why ``action`` by ``seat`` is illegal now, or ``None``."""
        return self.match.why_illegal(action, seat)
