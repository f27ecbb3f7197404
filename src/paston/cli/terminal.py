"""One person against two computer players in the terminal: prompts, reports, saving.

>>> for_person(IllegalActionError("R6.2", "card-not-held", "seat 0 does not hold QS", 0), ("You", "B", "C"))
'R6.2: You do not hold Q♠'
>>> for_person(IllegalActionError("R6.2", "x", "it is seat 1's turn, not seat 0's", 0), ("You", "Bo", "Cy"))
"R6.2: it is Bo's turn, not yours"
>>> for_person(IllegalActionError("R6.2", "x", "seat 1 must follow clubs (holds 9C TC)", 1), ("A", "Bo", "C"))
'R6.2: Bo must follow clubs (holds 9♣ 10♣)'
"""

from __future__ import annotations

import random
import re
import shlex
from collections.abc import Sequence
from pathlib import Path

import typer

from paston.actions import Action, Kind
from paston.bots import Player
from paston.bots.explain import explain
from paston.cards import Card
from paston.cli.common import out_console
from paston.cli.hint import print_hint
from paston.cli.safe import shown
from paston.cli.text import PERSON, conjugate, count, says, signed, summary_lines
from paston.deal import Phase
from paston.dealing import shuffled_deck
from paston.errors import IllegalActionError, ParseError
from paston.match import Match
from paston.record import dumps
from paston.shorthand import parse_typed
from paston.summary import deal_summary
from paston.tui.look import ladder_lines
from paston.tui.words import Words
from paston.views import DealView

HELP_TEXT = (
    "Type the number of a choice, or the action itself: 'pass', 'bid clubs' (or just 'clubs'),\n"
    "'whist', 'surrender', a card such as 'AH' or '10♥', or two cards to discard ('7D 8D').\n"
    "Other commands: 'hand' shows your cards, 'last' the last trick, 'score' the totals,\n"
    "'hint' the computer player's options for this decision, best first,\n"
    "'help' this text, 'quit' saves the game and stops."
)

_SEAT = re.compile(r"\bseat ([0-2])('s)?(?: (does|holds|has|is)\b)?")
_CODE = re.compile(r"'[^']*'|\b[789TJQKA][SCDH]\b")


def for_person(error: IllegalActionError | ParseError, names: Sequence[str]) -> str:
    """An engine error as the person reads it: seats by their names (the person "You"
    in the second person) and cards with suit symbols; quoted text stays as typed."""

    def seat(m: re.Match[str]) -> str:
        name = names[int(m.group(1))]
        if m.group(2):
            if name.lower() != PERSON.lower():
                return name + "'s"
            return "your" if m.string[m.end() : m.end() + 2].strip(" ").isalpha() else "yours"
        verb = f" {conjugate(name, m.group(3))}" if m.group(3) else ""
        return name + verb

    text = _SEAT.sub(seat, str(error))
    who = getattr(error, "seat", None)
    if who is not None and names[who].lower() == PERSON.lower():
        text = text.replace("(holds ", "(you hold ")
    return _CODE.sub(
        lambda m: m.group(0) if m.group(0).startswith("'") else Card.parse(m.group(0)).pretty(), text
    )


_EVERY_CONTRACT = re.compile(r"expected one of [^;]*")


def only_choices(message: str, legal: Sequence[Action]) -> str:
    """A parser's message with its list of every contract word replaced by the choices
    on offer, numbered.

    >>> from paston.actions import PASS
    >>> from paston.contracts import Contract
    >>> only_choices("cannot parse contract 'banana': expected one of spades, clubs (or gupa)",
    ...              [PASS, Action.bid(Contract.parse("hearts"))])
    "cannot parse contract 'banana': your choices are 1: pass, 2: bid gupa (♥)"
    """
    listed = ", ".join(f"{i}: {a.pretty()}" for i, a in enumerate(legal, start=1))
    return _EVERY_CONTRACT.sub(lambda _: f"your choices are {listed}", message)


class Quit(Exception):
    """The person stopped the game (quit, end of input)."""

    def __init__(self, end_of_input: bool = False) -> None:
        super().__init__("end of input" if end_of_input else "quit")
        self.end_of_input = end_of_input


def resume_hint(out: Path) -> str:
    """How to go on with a saved game.

    >>> resume_hint(Path("game 1.json"))
    "to go on: paston play --resume 'game 1.json'"
    """
    return f"to go on: paston play --resume {shlex.quote(str(out))}"


class TerminalGame:
    """One person against two computer players; the person sees only their own view.

    The game deals its own decks from ``deck_rng`` (R1.2) whenever the match needs one,
    so a new game and a resumed one go on the same way.
    """

    def __init__(
        self,
        match: Match,
        human: int,
        bots: dict[int, Player],
        out: Path,
        deck_rng: random.Random,
        *,
        pause: bool = False,
    ) -> None:
        self.match = match
        self.human = human
        self.bots = bots
        self.out = out
        self.deck_rng = deck_rng
        self.console = out_console()
        self.names = tuple(shown(name) for name in match.seats)
        self.pause = pause  # wait for Enter after each deal's summary
        self._shown_tricks = 0

    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False)

    def save(self) -> None:
        tmp = self.out.with_name(self.out.name + ".tmp")
        tmp.write_text(dumps(self.match, indent=2) + "\n", encoding="utf-8")
        tmp.replace(self.out)

    def deal_on(self) -> None:
        """Deal (and redeal) until a deal waits for an action or the game is over."""
        while self.match.needs_deck:
            self.match.deal_next(shuffled_deck(self.deck_rng))

    # --- the loop ---------------------------------------------------------------------
    def run(self, *, resumed: bool = False) -> None:
        match = self.match
        in_progress = resumed and not match.needs_deck  # a deal was saved in the middle
        deals_seen = len(match.deals) if resumed else 0
        self.deal_on()
        try:
            if in_progress:
                self._announce(deals_seen - 1)
                self._show_history(match.view(self.human))
            while not match.is_over:
                while deals_seen < len(match.deals):
                    deal = match.deals[deals_seen]
                    deals_seen += 1
                    self._announce(deals_seen - 1)
                    if deal.is_over and deal is not match.deals[-1]:
                        self._finish_deal(deals_seen - 1)
                seat = match.to_move
                assert seat is not None
                if seat == self.human:
                    action = self._ask(match.view(seat))
                else:
                    action = self.bots[seat].choose(match.view(seat))
                deal = match.deals[-1]
                index = len(match.deals) - 1
                match.apply(action, seat)
                self._report(seat, action)
                self._show_new_tricks(deal.view(self.human))
                if deal.is_over:
                    self._finish_deal(index)
                    deals_seen = max(deals_seen, index + 1)
                self.deal_on()
        except Quit as stop:
            self.save()
            if stop.end_of_input:  # Ctrl-D leaves the cursor on the prompt's line
                self.say("")
            self.say(f"Game saved (unfinished) to {self.out}; {resume_hint(self.out)}")
            return
        except KeyboardInterrupt:
            self.save()
            self.say(f"\nInterrupted: game saved (unfinished) to {self.out}; {resume_hint(self.out)}")
            raise typer.Exit(130) from None
        self.save()
        w = match.winners
        who = " and ".join(self.names[s] for s in w)
        self.say(
            f"Game over: {who} {'share the victory' if len(w) > 1 else conjugate(who, 'wins')}. "
            f"Final totals: " + ", ".join(f"{self.names[s]} {match.totals[s]}" for s in range(3))
        )
        self.say(f"Game record saved to {self.out}")

    def _announce(self, index: int) -> None:
        deal = self.match.deals[index]
        self._shown_tricks = 0
        self.say("")
        self.say(f"=== Deal {self.match.completed_deals + 1}: {says(self.names[deal.dealer], 'deals')} ===")
        if deal.redeal is not None and deal.redeal.at_deal_time:
            self.say(deal.redeal.text + " — the same dealer deals again.")
            return
        view = deal.view(self.human, self.match.totals)
        self.say(f"Your hand: {view.hand.pretty()}")
        assert deal.first_bidder is not None
        self.say(f"{says(self.names[deal.first_bidder], 'bids')} first.")

    def _show_history(self, view: DealView) -> None:
        """On resuming: what happened in the deal so far."""
        said = []
        for e in view.history:
            if e.kind is Kind.PLAY:
                continue
            if e.kind is Kind.DISCARD:
                said.append(f"{says(self.names[e.seat], 'discards')} two cards")
            elif e.action is not None:
                said.append(f"{self.names[e.seat]} {e.action.pretty()}")
        if said:
            self.say("So far: " + ", ".join(said) + ".")
        self._show_new_tricks(view)

    def _report(self, seat: int, action: Action) -> None:
        if seat == self.human or action.kind in (Kind.PLAY, Kind.SURRENDER):
            return  # a surrender is announced with the deal's result
        if action.kind is Kind.DISCARD:
            self.say(f"{says(self.names[seat], 'takes')} the prikup and discards two cards.")
        else:
            self.say(f"{self.names[seat]}: {action.pretty()}")

    def _show_new_tricks(self, view: DealView) -> None:
        tricks = view.completed_tricks
        while self._shown_tricks < len(tricks):
            t = tricks[self._shown_tricks]
            self._shown_tricks += 1
            plays = ", ".join(f"{self.names[s]} {c.pretty()}" for s, c in t.plays)
            self.say(
                f"Trick {self._shown_tricks}: {plays} → {self.names[t.winner]}   "
                f"(tricks: " + ", ".join(f"{self.names[s]} {view.tricks[s]}" for s in range(3)) + ")"
            )

    def _finish_deal(self, index: int) -> None:
        deal = self.match.deals[index]
        if deal.redeal is not None:
            if not deal.redeal.at_deal_time:
                self.say(deal.redeal.text + " — the same dealer deals again.")
            return
        assert deal.result is not None
        for line in summary_lines(
            deal_summary(self.match, index), self.names, target=self.match.rules.target
        ):
            self.say(line)
        totals = self.match.deal_totals[index]
        assert totals is not None
        self.say(
            "Totals: "
            + ", ".join(f"{self.names[s]} {totals[s]}" for s in range(3))
            + f"   (game to {self.match.rules.target})"
        )
        self.save()
        if self.pause and not self.match.is_over:
            typed = self._read("Press Enter for the next deal ('quit' saves and stops): ")
            if typed.lower() in ("q", "quit"):
                raise Quit

    # --- asking the person --------------------------------------------------------------
    def _read(self, prompt: str) -> str:
        try:
            line = input(prompt)
        except EOFError:
            raise Quit(end_of_input=True) from None
        return line.strip()

    def _describe(self, view: DealView) -> None:
        phase = view.phase
        if phase is Phase.AUCTION:
            high = view.high_bid.pretty() if view.high_bid is not None else "none yet"
            self.say(f"Auction — highest bid: {high}.  Your hand: {view.hand.pretty()}")
        elif phase is Phase.DISCARD:
            assert view.prikup is not None
            self.say(f"You declare. The prikup: {view.prikup.pretty()}")
            self.say(f"Your {count(len(view.hand), 'card')}: {view.hand.pretty()}")
        elif phase is Phase.TRUMP:
            self.say(f"Name trump or surrender.  Your hand: {view.hand.pretty()}")
        elif phase is Phase.DEFENCE:
            assert view.declarer is not None and view.contract is not None
            self.say(
                f"{says(self.names[view.declarer], 'plays')} {view.contract.pretty()}. "
                f"Whist (defend) or pass? Your hand: {view.hand.pretty()}"
            )
        elif phase is Phase.PLAY:
            assert view.contract is not None
            trick = ", ".join(f"{self.names[s]} {c.pretty()}" for s, c in view.current_trick) or "you lead"
            self.say(f"[{view.contract.pretty()}] Trick {len(view.completed_tricks) + 1}: {trick}")
            self.say(f"Your hand: {view.hand.pretty()}")

    def _command(self, low: str, view: DealView) -> bool:
        """Answer a command typed at a prompt; ``False`` if ``low`` is not one."""
        if low in ("q", "quit", "exit"):
            raise Quit()
        if low in ("h", "help", "?"):
            self.say(HELP_TEXT)
            for line in ladder_lines(Words("en")):  # the ladder's words and what each side needs
                self.say(line)
        elif low == "hand":
            self.say(f"Your hand: {view.hand.pretty()}")
        elif low == "hint":
            print_hint(self.console, explain(view), self.names)
        elif low == "score":
            t = self.match.totals
            self.say("Totals: " + ", ".join(f"{self.names[s]} {signed(t[s])}" for s in range(3)))
        elif low == "last":
            done = view.completed_tricks
            if done:
                last = done[-1]
                self.say(
                    "Last trick: "
                    + ", ".join(f"{self.names[s]} {c.pretty()}" for s, c in last.plays)
                    + f" → {self.names[last.winner]}"
                )
            else:
                self.say("No trick has been completed yet.")
        else:
            return False
        return True

    def _ask(self, view: DealView) -> Action:
        self._describe(view)
        legal = view.legal_actions
        choices: tuple[Action, ...] | None = legal
        cards: list[Card] = []
        if view.phase is Phase.DISCARD:
            choices = None
            cards = list(view.hand)
            self.say("  " + "  ".join(f"{i + 1}:{c.pretty()}" for i, c in enumerate(cards)))
            prompt = "Discard two cards (two numbers or codes, e.g. '3 7' or '7D 8D'): "
        else:
            self.say(
                "  " + "  ".join(f"{i + 1}:{a.pretty().removeprefix('play ')}" for i, a in enumerate(legal))
            )
            prompt = "Your choice: "
        while True:
            text = self._read(prompt)
            if not text or self._command(text.lower(), view):
                continue
            try:
                action = parse_typed(text, view, choices=choices, cards=cards or None)
            except ParseError as err:
                said = for_person(err, self.names)
                if view.phase not in (Phase.PLAY, Phase.DISCARD):
                    said = only_choices(said, legal)
                self.say(f"  {said}  (type 'help' for help)")
                continue
            error = self.match.why_illegal(action, self.human)
            if error is not None:
                self.say(f"  {for_person(error, self.names)}")
                continue
            return action
