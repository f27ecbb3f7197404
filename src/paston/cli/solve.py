"""``paston solve`` and ``paston analyze``: double-dummy values of cards."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from paston.actions import Kind
from paston.bots.pimc import DEFAULT_LEVEL
from paston.cards import CardSet
from paston.cli.analysis_view import analyze_scores
from paston.cli.common import (
    RULES_HELP,
    fail,
    given,
    load_game,
    out_console,
    parse_int_list,
    parse_rules,
    progress_bar,
)
from paston.cli.streams import readable
from paston.cli.text import count, display_names
from paston.deal import Phase
from paston.errors import PastonError, RecordError
from paston.match import Match
from paston.record import iter_file
from paston.result import Outcome
from paston.solver import Position, Solver
from paston.solver.card_costs import DealAnalysis, analyze_deal


def _position_from_record(match: Match, deal_index: int | None, action_index: int | None) -> Position:
    if deal_index is None:
        with_play = [
            i for i, d in enumerate(match.deals) if any(e.action.kind is Kind.PLAY for e in d.events)
        ]
        if not with_play:
            fail("no deal of this game reaches the play of the cards", 2)
        deal_index = with_play[0]
    if not 0 <= deal_index < len(match.deals):
        fail(f"the game has {count(len(match.deals), 'deal')}; --deal must be below {len(match.deals)}", 2)
    played = match.deals[deal_index]
    events = played.events
    if action_index is None:
        plays = [k for k, e in enumerate(events) if e.action.kind is Kind.PLAY]
        if not plays:
            fail(f"deal {deal_index} has no card play (it ended without play)", 2)
        action_index = plays[0]
    if not 0 <= action_index <= len(events):
        fail(f"deal {deal_index} has {count(len(events), 'action')}; --action must be 0 to {len(events)}", 2)
    deal = played.state_at(action_index)
    if deal.phase is not Phase.PLAY:
        fail(
            f"before action {action_index} of deal {deal_index} the deal is in phase {deal.phase.name}, "
            "not in the play; pick the index of a card play",
            2,
        )
    return Position.from_deal(deal)


_TEXT_OPTIONS = ("hand0", "hand1", "hand2", "trump", "declarer", "leader", "trick", "tricks")
_RECORD_OPTIONS = ("game", "deal", "action")


def odd_hand(hands: list[str], trick: str) -> str | None:
    """With no trick under way every hand that is not empty (a passer's) holds as many
    cards as the others: the message naming the one that differs, or ``None``.

    >>> odd_hand(["AS KS QS", "7H 8H 9H", "7C"], "").split(";")[0]
    '--hand2: seat 2 holds 1 card, but the other hands hold 3 each'
    >>> odd_hand(["AS KS", "7H 8H", ""], "") is None
    True
    """
    if trick.strip():
        return None
    try:
        sizes = {seat: len(CardSet.parse(h)) for seat, h in enumerate(hands) if h.strip()}
    except PastonError:
        return None  # the position's own parser names the bad card
    for seat, n in sizes.items():
        others = {m for s, m in sizes.items() if s != seat}
        if len(sizes) == 3 and len(others) == 1 and n not in others:
            return (
                f"--hand{seat}: seat {seat} holds {count(n, 'card')}, but the other hands hold "
                f"{others.pop()} each; give every hand the same number of cards (a passer none)"
            )
    return None


def _check_sources(ctx: typer.Context, record: Path | None) -> None:
    """A position comes from the text options or from a record, never from both."""
    text = [f"--{name}" for name in _TEXT_OPTIONS if given(ctx, name)]
    if record is not None and text:
        fail(
            f"--record and {text[0]} cannot be used together: the position comes either from a record "
            "(--record, --game, --deal, --action) or from the hands (--hand0, --hand1, --hand2, --trump, …)",
            2,
        )
    if record is None:
        loose = [f"--{name}" for name in _RECORD_OPTIONS if given(ctx, name)]
        if loose:
            fail(f"{loose[0]} picks a position in a record: give the record with --record FILE", 2)
        if not text:
            fail(
                "give a position: the cards of each seat with --hand0, --hand1, --hand2 (with --trump, "
                "--declarer, …), or a game record with --record FILE; see paston solve --help",
                2,
            )


def solve(
    ctx: typer.Context,
    hand0: str = typer.Option("", "--hand0", help="Seat 0's cards, e.g. 'AS KS 7H' (empty for a passer)."),
    hand1: str = typer.Option("", "--hand1", help="Seat 1's cards."),
    hand2: str = typer.Option("", "--hand2", help="Seat 2's cards."),
    trump: str = typer.Option("spades", "--trump", help="The contract: spades … hearts, best-spades."),
    declarer: int = typer.Option(0, "--declarer", "-d", min=0, max=2, help="The declarer's seat."),
    leader: int | None = typer.Option(
        None, "--leader", min=0, max=2, help="Who leads the current trick (default: the declarer)."
    ),
    trick: str = typer.Option("", "--trick", help="Cards already played to the current trick, in order."),
    tricks: str = typer.Option("", "--tricks", help="Tricks taken so far per seat, e.g. 3,1,2."),
    record: Path | None = typer.Option(
        None, "--record", exists=True, dir_okay=False, help="Take the position from a record file instead."
    ),
    game: int = typer.Option(0, "--game", min=0, help="With --record: the game (0 = first)."),
    deal: int | None = typer.Option(
        None, "--deal", min=0, help="With --record: the index in 'deals' (default: the first deal with play)."
    ),
    action: int | None = typer.Option(
        None,
        "--action",
        min=0,
        help="With --record: the position before this action (default: the opening lead).",
    ),
    scores: bool = typer.Option(False, "--scores", help="Also solve max^n with the scores of R7."),
    rules: str = typer.Option(
        "spanish", "--rules", "-r", help="Rule set for --scores (from the record if given). " + RULES_HELP
    ),
) -> None:
    """Solve a play position double-dummy and print the value of each legal card."""
    _check_sources(ctx, record)
    rule_set = parse_rules(rules)
    try:
        if record is not None:
            match = load_game(record, game)
            pos = _position_from_record(match, deal, action)
            rule_set = match.rules
        else:
            taken = parse_int_list(tricks, "--tricks") if tricks else [0, 0, 0]
            if len(taken) != 3:
                raise typer.BadParameter("give three counts", param_hint="--tricks")
            odd = odd_hand([hand0, hand1, hand2], trick)
            if odd is not None:
                fail(odd, 2)
            pos = Position.from_text(
                hands=[hand0, hand1, hand2],
                trump=trump,
                declarer=declarer,
                leader=declarer if leader is None else leader,
                trick=trick,
                tricks=taken,
            )
    except PastonError as err:
        fail(str(err), 2)
    solver = Solver()
    solution = solver.solve(pos)
    console = out_console()
    seat = pos.to_move
    side = "declarer" if seat == pos.declarer else "defender"
    console.print(
        f"{pos.contract.pretty()} — declarer seat {pos.declarer}, defenders "
        f"{', '.join(str(d) for d in pos.defenders)}; seat {seat} ({side}) to play",
        markup=False,
    )
    maxn = None
    if scores and sum(pos.tricks) + pos.cards_left == 10:
        maxn = solver.maxn(pos, rule_set)
    table = Table(show_edge=False)
    table.add_column("card")
    table.add_column("declarer tricks", justify="right")
    table.add_column("", justify="left")
    if maxn is not None:
        table.add_column("scores (max^n)", justify="right")
    best = set(solution.best_cards(seat == pos.declarer))
    for card, value in solution.card_values.items():
        row = [card.pretty(), str(value), "best" if card in best else f"costs {abs(value - solution.value)}"]
        if maxn is not None:
            row.append(" ".join(f"{v:+d}" for v in maxn.card_scores[card]))
        table.add_row(*row)
    console.print(table)
    made = "makes" if solution.value >= 6 else "fails"
    console.print(
        f"Declarer takes {count(solution.value, 'trick')} with best play ({made} the contract); "
        f"{solution.nodes:,} positions searched.",
        markup=False,
    )
    if maxn is not None:
        console.print(
            f"max^n (each player maximises their own score): tricks {list(maxn.tricks)}, "
            f"scores {list(maxn.scores)}",
            markup=False,
        )
    elif scores:
        console.print("(--scores needs a position of a full 10-trick deal)", markup=False)


def _print_analysis(a: DealAnalysis, names: tuple[str, str, str], number: int) -> None:
    console = out_console()
    console.print(
        f"Deal {number} (deals[{a.deal_index}]): {a.contract.pretty()}, declarer {names[a.declarer]}; "
        f"double-dummy value at the start of play: {count(a.start_value, 'trick')}",
        markup=False,
    )
    for t, trick in enumerate(a.tricks, start=1):
        cells = []
        for play in trick:
            mark = f" (−{play.cost})" if play.cost else ""
            cells.append(f"{names[play.seat]} {play.card.pretty()}{mark}")
        console.print(f"  {t:>2}. " + "  ".join(cells), markup=False)
    console.print(
        "  Tricks lost against perfect play: " + ", ".join(f"{names[s]} {a.cost[s]}" for s in a.active),
        markup=False,
    )


def _played_deals(match: Match) -> list[int]:
    return [
        i
        for i, d in enumerate(match.deals)
        if (d.result is not None and d.result.outcome is Outcome.PLAYED)
        or (d.result is None and d.redeal is None and any(e.action.kind is Kind.PLAY for e in d.events))
    ]


def _analyze_all(file: Path, quiet: bool) -> None:
    """Every game of the file; tricks lost summed by player name."""
    games = []
    try:
        for item in iter_file(readable(file)):
            if isinstance(item, RecordError):
                fail(f"{file}: {item}")
            games.append(item)
    except (OSError, UnicodeDecodeError) as err:
        fail(f"cannot read {file}: {err}")
    jobs = [(m, i) for m in games for i in _played_deals(m)]
    lost: dict[str, int] = {}
    cards: dict[str, int] = {}
    seat_deals: dict[str, int] = {}
    solver = Solver()
    with progress_bar("analysing", quiet) as progress:
        task = progress.add_task("deals", total=len(jobs))
        for match, i in jobs:
            result = analyze_deal(match.deals[i], i, solver)
            for seat in result.active:
                name = match.seats[seat]
                lost[name] = lost.get(name, 0) + result.cost[seat]
                seat_deals[name] = seat_deals.get(name, 0) + 1
            for trick in result.tricks:
                for play in trick:
                    name = match.seats[play.seat]
                    cards[name] = cards.get(name, 0) + 1
            progress.advance(task)
    console = out_console()
    table = Table(
        title=f"Tricks lost against perfect play: {count(len(jobs), 'played deal')} of "
        f"{count(len(games), 'game')}",
        show_edge=False,
    )
    for col in ("player", "deals played", "cards", "tricks lost", "per deal", "per 100 cards"):
        table.add_column(col, justify="left" if col == "player" else "right", no_wrap=True)
    for name in sorted(lost):
        per_deal = lost[name] / seat_deals[name]
        table.add_row(
            name,
            str(seat_deals[name]),
            str(cards.get(name, 0)),
            str(lost[name]),
            f"{per_deal:.3f}",
            f"{100 * lost[name] / max(1, cards.get(name, 0)):.2f}",
        )
    console.print(table)


def analyze(
    file: Path = typer.Argument(..., dir_okay=False, help="A record file."),
    game: int = typer.Option(0, "--game", "-g", min=0, help="Which game of the file (0 = the first)."),
    all_games: bool = typer.Option(
        False, "--all", help="Analyse every game of the file and sum the tricks lost by player name."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    scores: bool = typer.Option(
        False,
        "--scores",
        help="Full analysis: the R7 points each card cost (max^n), what pimc would have played "
        "from the seat's view, pimc's expected score for each bid, discard, trump and whist option, "
        "points lost per player and the biggest mistakes.",
    ),
    deal: int | None = typer.Option(
        None, "--deal", min=0, help="With --scores: only this deal (its index in 'deals')."
    ),
    level: int = typer.Option(DEFAULT_LEVEL, "--level", min=1, max=5, help="With --scores: pimc's level."),
    seed: int = typer.Option(0, "--seed", help="With --scores: the seed of pimc's samples."),
    as_json: bool = typer.Option(False, "--json", help="With --scores: print the analysis as JSON."),
) -> None:
    """Annotate every card played with the tricks it cost against perfect play (--scores: points too).

    With --scores each card also gets the R7 points it cost (max^n) and what pimc would
    have played from the seat's view, and each decision pimc's score for every option."""
    if scores:
        if all_games:
            fail("--scores analyses one game (--game N); it cannot be used with --all", 2)
        analyze_scores(load_game(file, game), deal, level, seed, quiet, as_json)
        return
    if deal is not None or as_json:
        fail("--deal and --json go with --scores", 2)
    if all_games:
        _analyze_all(file, quiet)
        return
    match = load_game(file, game)
    names = display_names(match.seats)
    played = _played_deals(match)
    solver = Solver()
    results: list[DealAnalysis] = []
    with progress_bar("analysing", quiet) as progress:
        task = progress.add_task("deals", total=len(played))
        for i in played:
            results.append(analyze_deal(match.deals[i], i, solver))
            progress.advance(task)
    totals = [0, 0, 0]
    number_of = {}
    n = 0
    for i, d in enumerate(match.deals):
        if d.redeal is None:
            n += 1
        number_of[i] = n
    for a in results:
        _print_analysis(a, names, number_of[a.deal_index])
        for s in range(3):
            totals[s] += a.cost[s]
    out_console().print(
        "Total tricks lost against perfect play: "
        + ", ".join(f"{names[s]} {totals[s]}" for s in range(3))
        + f" over {count(len(results), 'played deal')}",
        markup=False,
    )
