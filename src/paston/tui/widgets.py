"""The full-screen app's widgets: a choice (a card with its key, or an action) and a
dialog that waits for a key; and how the app ends.

>>> KEYS[:3], KEYS[9:]
('123', '0-=')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["KEYS", "Chip", "Dialog", "Outcome"]

#: The key of each choice, in order (a discard offers twelve cards).
KEYS = "1234567890-="


class Picks(Protocol):
    """The app a choice belongs to: it takes the ``index``-th option."""

    def pick(self, index: int) -> None: ...


@dataclass(frozen=True)
class Outcome:
    """How the app ended: the game over, or saved to go on later (``quit``)."""

    finished: bool


class Chip(Static):
    """One choice: a card of the hand (with its key below) or an action; a click picks it."""

    def __init__(self, index: int, label: Text, *, enabled: bool, selected: bool, action: bool) -> None:
        key = KEYS[index] if index < len(KEYS) else " "
        text = Text()
        if action:
            text.append(f"{key} ", style="dim")
            text.append_text(label)
        else:
            text.append_text(label)
            text.append(f"\n{key}", style="dim")
        if not enabled:
            text.stylize("dim")
        if selected:
            text.stylize("reverse")
        super().__init__(text, classes="chip action" if action else "chip")
        self.index = index
        self.enabled = enabled

    def on_click(self, event: events.Click) -> None:
        if self.enabled:
            app: Picks = self.app  # type: ignore[assignment]
            app.pick(self.index)


class Dialog(ModalScreen[str]):
    """Text in a box; any key closes it (returning the key), ``q`` too."""

    BINDINGS: ClassVar[list[BindingType]] = []

    def __init__(self, lines: Sequence[str | Text], closing: str) -> None:
        super().__init__()
        self.lines = lines
        self.closing = closing

    def compose(self) -> ComposeResult:
        body = Text()
        for line in self.lines:
            body.append_text(line if isinstance(line, Text) else Text(line))
            body.append("\n")
        body.append(self.closing, style="dim")
        yield Static(body, classes="dialog")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(event.key)

    def on_click(self, event: events.Click) -> None:
        self.dismiss("click")
