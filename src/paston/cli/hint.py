"""``paston hint``: the computer player's options for one decision of a recorded game,
from the view of the seat to move; and the table that the terminal game's ``hint``
command prints too.

>>> import random
>>> from paston.deal import Deal
>>> from paston.bots.explain import explain
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> table = hint_table(explain(deal.view(deal.to_move), level=1), ("Ana", "Bo", "Cy"))
>>> [c.header for c in table.columns]
['', 'option', 'expected score', 'chance', 'tricks', '']
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from paston.actions import Action
from paston.bots.explain import Hint, explain
from paston.bots.pimc import DEFAULT_LEVEL
from paston.cli.common import fail, load_game, out_console
from paston.cli.text import count, display_names, object_form, possessive
from paston.deal import Deal
from paston.match import Match
from paston.views import DealView

#: The mark on the option the computer player would choose (what the hint suggests to you).
SUGGESTED_MARK = "◀ suggested"
#: The mark on the option played in the recorded game (``paston hint --record``).
PLAYED_MARK = "◀ played"


def hint_table(hint: Hint, names: Sequence[str], played: Action | None = None) -> Table:
    """The options best first: the action, its expected score for the seat (R7 points),
    its chance to make the contract (or, defending, to beat it) in the sampled worlds, the
    seat's expected tricks (card play only), and marks on the computer player's choice
    (suggested) and, for a recorded decision, on the option played."""
    goal = "make the contract" if hint.goal == "make" else "beat the contract"
    title = f"Options for {object_form(names[hint.seat])}, best first (chance: to {goal})"
    table = Table(show_edge=False, title=title)
    table.add_column("", justify="right")
    table.add_column("option")
    table.add_column("expected score", justify="right")
    table.add_column("chance", justify="right")
    table.add_column("tricks", justify="right")  # expected
    table.add_column("")
    for rank, option in enumerate(hint.options, start=1):
        marks = [SUGGESTED_MARK] if option.action == hint.chosen else []
        if played is not None and option.action == played:
            marks.append(PLAYED_MARK)
        table.add_row(
            str(rank),
            option.action.pretty(),
            f"{option.score:+.2f}",
            "" if option.chance is None else f"{option.chance:.0%}",
            "" if option.tricks is None else f"{option.tricks:.2f}",
            " ".join(marks),
        )
    return table


def print_hint(console: Console, hint: Hint, names: Sequence[str], played: Action | None = None) -> None:
    """The table and a line on how it was computed."""
    who = names[hint.seat]
    console.print(hint_table(hint, names, played))
    console.print(
        f"pimc level {hint.level} on {count(hint.worlds, 'sampled world')} consistent with "
        f"{possessive(who)} view (expected score: R7 points for {object_form(who)} in this deal).",
        markup=False,
    )


def _decision(match: Match, deal_index: int, action_index: int) -> tuple[Deal, DealView]:
    """The deal before action ``action_index`` of deal ``deal_index`` and the view of its
    seat to move, or a readable error and exit status 2."""
    deals = match.deals
    if not deals:
        fail("the game has no deals", 2)
    if deal_index >= len(deals):
        fail(f"the game has {count(len(deals), 'deal')}; --deal must be 0 to {len(deals) - 1}", 2)
    played = deals[deal_index]
    events = played.events
    if played.redeal is not None:
        fail(f"deal {deal_index} was dealt again ({played.redeal.text}): it has no decisions", 2)
    if action_index > len(events):
        fail(f"deal {deal_index} has {count(len(events), 'action')}; --action must be 0 to {len(events)}", 2)
    deal = played.state_at(action_index)
    seat = deal.to_move
    if seat is None or deal.is_over:
        fail(f"before action {action_index} of deal {deal_index} the deal is over: nobody is to move", 2)
    return deal, deal.view(seat)


def hint(
    record: Path = typer.Option(..., "--record", dir_okay=False, help="A game record file (paston/1)."),
    game: int = typer.Option(0, "--game", "-g", min=0, help="Which game of the file (0 = the first)."),
    deal: int = typer.Option(
        ..., "--deal", "-d", min=0, help="The index in the game's 'deals' (0 = the first)."
    ),
    action: int = typer.Option(
        ..., "--action", "-a", min=0, help="The decision before this action of the deal (0 = the first)."
    ),
    level: int = typer.Option(
        DEFAULT_LEVEL, "--level", "-l", min=1, max=5, help="The pimc level that values the options (1–5)."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the sampled worlds (the same seed, the same hint)."),
) -> None:
    """Show the options of one decision of a recorded game, best first.

    The decision before action M of deal N, seen by the seat to move (only what that
    seat could see then): every option the pimc computer player considers, with its
    expected score for the seat (R7 points), its chance to make (or beat) the contract
    and, for cards, the seat's expected tricks; the computer player's pick is marked
    "suggested" and the option played in the game "played". Bids, discards, trump or
    surrender, whist or pass and cards are all covered.

    Example: paston hint --record game.json --deal 0 --action 5
    """
    match = load_game(record, game)
    names = display_names(match.seats)
    state, view = _decision(match, deal, action)
    assert view.seat is not None
    result = explain(view, level=level, seed=seed)
    console = out_console()
    console.print(
        f"Game {game}, deal {deal}, before action {action}: {names[view.seat]} (seat {view.seat}) "
        f"to move — {state.phase.duty}.  Hand: {view.hand.pretty()}",
        markup=False,
    )
    events = match.deals[deal].events
    played = events[action].action if action < len(events) else None
    print_hint(console, result, names, played)
    if action < len(events):
        console.print(f"Played in the game: {events[action].action.pretty()}", markup=False)
