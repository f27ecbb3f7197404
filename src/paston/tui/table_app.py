"""``paston play`` on a full screen: the table, your hand in colour, the contract and the
trick always in view, keyboard and mouse.

The screen shows one seat's view only (the person to move; with people sharing a
keyboard, a cover screen hides the hand between turns). Computer players move in a
worker thread from their own views, a short pause apart so that a trick can be followed.

Keys: the number under a card or a choice plays it (1–9, 0 for the tenth, - and = for
the 11th and 12th card of a discard); ←/→ and Enter choose too, and so does a click.
``h`` hint, ``l`` the last trick, ``s`` the score sheet, ``?`` help and the ladder's
words, ``q`` saves and quits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import RichLog, Static

from paston.actions import Action, Kind
from paston.bots.explain import explain
from paston.cards import Card
from paston.errors import IllegalActionError
from paston.phases import Phase
from paston.summary import deal_summary
from paston.tui.draw import TableText
from paston.tui.look import (
    by_suit,
    card_text,
    deal_end_lines,
)
from paston.tui.session import GameSession
from paston.tui.widgets import KEYS, Chip, Dialog, Outcome
from paston.tui.words import Words
from paston.views import DealView

__all__ = ["PastonApp", "run_app"]

CSS = """
Screen { layout: vertical; }
#status { height: 1; background: $boost; padding: 0 1; }
#opponents { height: 4; }
.seat {
    width: 1fr; height: 100%; border: round $primary-darken-2; padding: 0 1;
    text-wrap: nowrap; text-overflow: ellipsis;
}
.seat.turn { border: round $warning; }
#middle { height: 7; }
#trick { width: 1fr; height: 100%; border: round green; padding: 0 1; }
#score { width: 30; height: 100%; border: round $primary-darken-2; padding: 0 1; }
#log { height: 3; padding: 0 1; }
#you { height: 4; border: round $primary-darken-2; padding: 0 1; }
#you.turn { border: round $warning; }
#hand { height: 2; }
#choices { height: 1; padding: 0 1; }
#keys { height: 1; background: $boost; }
.chip { width: auto; height: 2; padding: 0 1 0 0; }
.chip.action { height: 1; padding: 0 2 0 0; }
ModalScreen { align: center middle; }
.dialog {
    width: 100%; max-width: 110; height: auto; max-height: 22;
    border: thick $warning; padding: 0 1; background: $panel;
}
"""


class PastonApp(App[Outcome]):
    """The game on a full screen (see the module's docstring)."""

    CSS = CSS
    TITLE = "Paston"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "←", show=False),
        Binding("right", "move(1)", "→", show=False),
        Binding("enter", "choose", "play", show=False),
        Binding("h", "hint", "hint", show=False),
        Binding("l", "last_trick", "last trick", show=False),
        Binding("s", "sheet", "score", show=False),
        Binding("u", "undo", "undo", show=False),
        Binding("question_mark", "help", "help", show=False),
        Binding("q", "quit_game", "save & quit", show=False),
        Binding("ctrl+c", "quit_game", "save & quit", show=False, priority=True),
    ]

    def __init__(
        self,
        session: GameSession,
        *,
        delay: float = 0.6,
        forced_delay: float = 0.8,
        four_colour: bool = False,
        words: Words | None = None,
    ) -> None:
        super().__init__()
        self.words = words or Words("en")
        self.texts = TableText(session, self.words, four_colour=four_colour)
        self.session = session
        self.delay = delay  # between computer players' moves
        self.forced_delay = forced_delay  # before a person's only choice is played for them
        self.four_colour = four_colour
        people = sorted(session.people)
        self.shown = people[0]  # the seat whose view is on the screen
        self.selected = 0
        self.marked: set[int] = set()  # the cards chosen for a discard
        self.choices: list[Action] = []
        self.cards: list[Card] = []  # the hand, as shown
        self.busy = False  # a computer player is thinking, or a dialog is open
        self.message = ""
        self.forced: Timer | None = None  # the pause before an only choice is played

    # --- layout -----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="opponents"):
            yield Static(id="seat-a", classes="seat")
            yield Static(id="seat-b", classes="seat")
        with Horizontal(id="middle"):
            yield Static(id="trick")
            yield Static(id="score")
        yield RichLog(id="log", markup=False, wrap=True, max_lines=200)
        with Vertical(id="you"):
            yield Horizontal(id="hand")
        yield Horizontal(id="choices")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.session.deal_on()
        self.query_one("#keys", Static).update(self.texts.keys_line())
        self.note(
            self.words(
                "term_youAre", name=self.session.names[self.shown], target=self.session.match.rules.target
            )
        )
        self.advance()

    # --- the flow ---------------------------------------------------------------------
    def advance(self) -> None:
        """Show the table and wait for the next move: a person's, or a computer's."""
        session = self.session
        seat = session.waiting_for
        if seat is None:
            self.draw()
            self.game_over()
            return
        if seat in session.people:
            if seat != self.shown and len(session.people) > 1:
                self.cover(seat)
                return
            self.shown = seat
            self.offer(session.view(seat))
            self.draw()
            if len(self.choices) == 1 and not self.cards_to_mark():
                self.busy = True
                only = self.words.action(self.choices[0], self.session.view(seat).phase)
                self.message = self.words("term_onlyChoice", action=only)
                self.draw()
                self.forced = self.after(self.forced_delay, self.play_forced)
            return
        self.choices = []
        self.draw()
        self.busy = True
        self.after(self.delay, self.computer_moves)

    def after(self, seconds: float, callback: Callable[[], object]) -> Timer | None:
        """Call ``callback`` after ``seconds`` (at once, from the event loop, for 0)."""
        if seconds > 0:
            return self.set_timer(seconds, callback)
        self.call_later(callback)
        return None

    def play_forced(self) -> None:
        """The only choice, played for the person after the pause."""
        self.forced = None
        if self.choices:
            self.move_person(self.choices[0])

    def cover(self, seat: int) -> None:
        """People share the keyboard: hide the hand until the next one is ready."""
        self.choices, self.cards = [], []
        self.busy = True
        name = self.session.names[seat]
        self.query_one("#hand", Horizontal).remove_children()
        self.query_one("#choices", Horizontal).remove_children()

        def ready(key: str | None) -> None:
            self.busy = False
            if key == "q":
                self.action_quit_game()
                return
            self.shown = seat
            self.advance()

        self.push_screen(
            Dialog([self.words("term_cover", name=name), self.words("term_coverNote")], ""),
            ready,
        )

    @work(thread=True, exclusive=True, group="computer")
    def computer_moves(self) -> None:
        seat, action, index = self.session.computer_move()
        self.call_from_thread(self.moved, seat, action, index)

    def move_person(self, action: Action) -> None:
        seat = self.session.waiting_for
        if seat is None or seat not in self.session.people:
            return
        try:
            index = self.session.play(seat, action)
        except IllegalActionError as err:  # the screen offers legal choices only; kept as a guard
            self.message = str(err)
            self.busy = False
            self.draw()
            return
        self.moved(seat, action, index)

    def moved(self, seat: int, action: Action, index: int) -> None:
        """After any move: say it, then end the deal or go on."""
        self.busy = False
        self.message = ""
        self.marked = set()
        self.selected = 0
        self.report(seat, action, index)
        deal = self.session.match.deals[index]
        if deal.is_over:
            self.draw()
            self.end_of_deal(index)
            return
        self.advance()

    def end_of_deal(self, index: int) -> None:
        match = self.session.match
        deal = match.deals[index]
        names = self.session.names
        words = self.words
        lines: list[str | Text] = list(
            deal_end_lines(deal_summary(match, index), names, words, match.rules.target)
        )
        totals = match.deal_totals[index]
        if deal.redeal is None and totals is not None:
            lines.append(words("endTotal") + ": " + ", ".join(f"{names[s]} {totals[s]}" for s in range(3)))
        self.busy = True

        def next_deal(key: str | None) -> None:
            self.busy = False
            if key == "q":
                self.action_quit_game()
                return
            self.session.deal_on()
            if not match.is_over:
                self.note(words("term_nextDealBy", n=len(match.deals), name=names[match.deals[-1].dealer]))
            self.advance()

        closing = words("term_enterNext") if not match.is_over else words("term_enter")
        self.push_screen(Dialog([words("endTitle", n=index + 1), *lines], closing), next_deal)

    def game_over(self) -> None:
        self.session.save()
        self.busy = True
        done = Outcome(finished=True)
        self.push_screen(
            Dialog(self.texts.game_over_lines(), self.words("term_anyKey")), lambda _: self.exit(done)
        )

    # --- what the person may do --------------------------------------------------------
    def offer(self, view: DealView) -> None:
        self.cards = by_suit(view.hand)
        if view.phase is Phase.DISCARD:
            self.choices = []
        else:
            self.choices = list(view.legal_actions)
        self.selected = min(self.selected, max(len(self.options()) - 1, 0))

    def cards_to_mark(self) -> bool:
        """Whether the person picks two cards to discard (the hand is the choice)."""
        seat = self.session.waiting_for
        return (
            seat is not None
            and seat in self.session.people
            and self.session.view(seat).phase is Phase.DISCARD
        )

    def plays_cards(self) -> bool:
        return bool(self.choices) and all(a.kind is Kind.PLAY for a in self.choices)

    def options(self) -> list[object]:
        """What the keys number: the hand's cards (card play, discard) or the actions."""
        if self.cards_to_mark() or self.plays_cards():
            return list(self.cards)
        return list(self.choices)

    def pick(self, index: int) -> None:
        """The person chose the ``index``-th option (a key, a click, Enter)."""
        if self.busy or self.session.waiting_for not in self.session.people:
            return
        options = self.options()
        if not 0 <= index < len(options):
            return
        self.selected = index
        if self.cards_to_mark():
            card = self.cards[index]
            self.marked ^= {card.index}
            if len(self.marked) == 2:
                first, second = sorted(self.marked)
                self.move_person(Action.discard(first, second))
                return
            self.draw()
            return
        if self.plays_cards():
            card = self.cards[index]
            action = Action.play(card)
            if action not in self.choices:
                error = self.session.check(self.shown, action)
                key = f"err_{error.code}" if error is not None else ""
                reason = self.words(key) if key in self.words.strings else str(error)
                self.message = self.words("term_cannotPlay", card=self.words.card(card), reason=reason)
                self.bell()
                self.draw()
                return
            self.move_person(action)
            return
        self.move_person(self.choices[index])

    def on_key(self, event: events.Key) -> None:
        if (
            event.character is not None
            and event.character in KEYS
            and not isinstance(self.screen, ModalScreen)
        ):
            event.stop()
            self.pick(KEYS.index(event.character))

    def action_move(self, step: int) -> None:
        options = self.options()
        if options and not self.busy:
            self.selected = (self.selected + step) % len(options)
            self.draw()

    def action_choose(self) -> None:
        self.pick(self.selected)

    # --- the other keys -----------------------------------------------------------------
    def action_help(self) -> None:
        self.push_screen(Dialog(self.texts.help_lines(), self.words("term_enter")))

    def action_last_trick(self) -> None:
        line = self.texts.last_trick_line(self.session.view(self.shown))
        self.push_screen(Dialog([line], self.words("term_enter")))

    def action_sheet(self) -> None:
        self.push_screen(Dialog(self.texts.sheet_lines(), self.words("term_enter")))

    def action_hint(self) -> None:
        seat = self.session.waiting_for
        if seat is None or seat not in self.session.people or self.busy:
            self.message = self.words("term_hintMine")
            self.draw()
            return
        self.message = self.words("term_thinking")
        self.draw()
        self.hint_for(self.session.view(seat))

    @work(thread=True, exclusive=True, group="hint")
    def hint_for(self, view: DealView) -> None:
        lines = self.texts.hint_lines(explain(view, level=1), view.phase)
        self.call_from_thread(self._show_hint, lines)

    def _show_hint(self, lines: list[str]) -> None:
        self.message = ""
        self.draw()
        self.push_screen(Dialog(lines, self.words("term_enter")))

    def action_undo(self) -> None:
        """Take back the person's last move of the deal (against computer players only)."""
        if isinstance(self.screen, ModalScreen):
            return
        if self.busy and self.forced is not None:  # taking back instead of the forced move
            self.forced.stop()
            self.forced = None
            self.busy = False
        if self.busy:
            return
        self.selected = 0
        self.marked = set()
        if not self.session.undo():
            self.message = self.words("term_noUndo")
            self.bell()
            self.draw()
            return
        self.note(self.words("term_undone"))
        self.advance()
        self.message = self.words("term_undone")
        self.draw()

    def action_quit_game(self) -> None:
        self.session.save()
        self.exit(Outcome(finished=self.session.match.is_over))

    # --- drawing ----------------------------------------------------------------------
    def note(self, text: str) -> None:
        self.query_one("#log", RichLog).write(text)

    def report(self, seat: int, action: Action, index: int) -> None:
        names = self.session.names
        deal = self.session.match.deals[index]
        view = deal.view(self.shown)
        if action.kind is Kind.PLAY:
            if not view.current_trick and view.completed_tricks:
                trick = view.completed_tricks[-1]
                plays = ", ".join(f"{names[s]} {self.words.card(c)}" for s, c in trick.plays)
                self.note(
                    f"{self.words('trickN', n=len(view.completed_tricks))}: {plays} → {names[trick.winner]}"
                )
            return
        phase = (
            Phase.DEFENCE
            if view.declarer is not None and action.kind in (Kind.PASS, Kind.WHIST)
            else Phase.AUCTION
        )
        self.note(self.words.said(names[seat], action, phase))

    def draw(self) -> None:
        session = self.session
        match = session.match
        if not match.deals:
            return
        view = session.view(self.shown)
        seat_to_move = session.waiting_for
        left, right = (self.shown + 1) % 3, (self.shown + 2) % 3
        self.query_one("#status", Static).update(self.texts.status_line(view, self.message))
        for widget_id, seat in (("#seat-a", left), ("#seat-b", right)):
            widget = self.query_one(widget_id, Static)
            widget.set_class(seat == seat_to_move, "turn")
            widget.update(self.texts.seat_text(view, seat))
        self.query_one("#trick", Static).update(self.texts.trick_text(view, self.shown))
        self.query_one("#score", Static).update(self.texts.score_text())
        you = self.query_one("#you", Vertical)
        you.set_class(self.shown == seat_to_move, "turn")
        you.border_title = Text(self.texts.seat_title(view, self.shown))  # a name is never markup
        self.draw_hand(view)
        self.draw_choices()

    def draw_hand(self, view: DealView) -> None:
        hand = self.query_one("#hand", Horizontal)
        hand.remove_children()
        numbered = self.cards_to_mark() or self.plays_cards()
        legal = {a.cards[0].index for a in self.choices if a.kind is Kind.PLAY}
        chips: list[Static] = []
        for i, card in enumerate(self.cards):
            label = card_text(card, self.words, four_colour=self.four_colour)
            if card.index in self.marked:
                label.stylize("underline")
            enabled = numbered and (self.cards_to_mark() or card.index in legal)
            selected = numbered and i == self.selected
            chips.append(
                Chip(i if numbered else len(KEYS), label, enabled=enabled, selected=selected, action=False)
            )
        if not chips and view.hand_sizes[self.shown] == 0:
            chips.append(Static(Text(self.words("term_noCards"))))
        hand.mount_all(chips)

    def draw_choices(self) -> None:
        bar = self.query_one("#choices", Horizontal)
        bar.remove_children()
        words = self.words
        if self.cards_to_mark():
            chosen = words.cards(Card(c) for c in sorted(self.marked)) or words("term_noneYet")
            bar.mount(Static(Text(words("term_chooseDiscard", cards=chosen))))
            return
        if self.plays_cards() or not self.choices or self.busy:
            return
        phase = self.session.view(self.shown).phase
        bar.mount_all(
            Chip(i, Text(words.action(a, phase)), enabled=True, selected=i == self.selected, action=True)
            for i, a in enumerate(self.choices)
        )


def run_app(
    session: GameSession, *, words: Words | None = None, four_colour: bool = False, delay: float = 0.6
) -> Outcome:
    """Run the app until the game ends or the person quits; the record is saved either way
    (a crash too)."""
    app = PastonApp(session, words=words, four_colour=four_colour, delay=delay)
    try:
        outcome = app.run()
    finally:
        session.save()
    return outcome if outcome is not None else Outcome(finished=session.match.is_over)
