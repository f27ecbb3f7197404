"""Readable text for people: scores, counts, verbs, deal accounts.

>>> signed(40), signed(-9), signed(0)
('+40', '-9', '0')
>>> count(1, "deal"), count(3, "deal"), says("You", "deals"), says("Ana", "deals")
('1 deal', '3 deals', 'You deal', 'Ana deals')
"""

from __future__ import annotations

from collections.abc import Sequence

from paston.actions import Kind
from paston.cards import CardSet
from paston.cli.safe import shown
from paston.deal import Deal
from paston.dealing import dealt_order
from paston.match import Match
from paston.result import DealResult, Outcome
from paston.scoring import reset_seats
from paston.summary import DealSummary, Role

PERSON = "You"
"""The default name of the person at the terminal, who is addressed in the second person."""

_IRREGULAR = {"has": "have", "is": "are", "does": "do", "was": "were"}


def signed(n: int) -> str:
    """A score with its sign."""
    return f"+{n}" if n > 0 else str(n)


def count(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one: ``1 trick``, ``0 tricks``.

    >>> count(1, "match", "matches"), count(2, "match", "matches")
    ('1 match', '2 matches')
    """
    return f"{n} {word if n == 1 else plural or word + 's'}"


def says(name: str, verb: str) -> str:
    """``name`` with ``verb`` (given in the third person singular) agreeing with it:
    the person named "You" takes the plain form.

    >>> says("Bo", "takes"), says("You", "takes"), says("you", "has"), says("You", "passes")
    ('Bo takes', 'You take', 'you have', 'You pass')
    """
    return f"{name} {conjugate(name, verb)}"


def conjugate(name: str, verb: str) -> str:
    """The form of ``verb`` (third person singular) that agrees with ``name``."""
    if name.strip().lower() != PERSON.lower():
        return verb
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("sses", "ches", "shes", "xes")):
        return verb[:-2]
    return verb.removesuffix("s")


def possessive(name: str) -> str:
    """``Ana's``, and ``your`` for the person at the terminal.

    >>> possessive("Ana"), possessive("You")
    ("Ana's", 'your')
    """
    return "your" if name.strip().lower() == PERSON.lower() else f"{name}'s"


def object_form(name: str) -> str:
    """The name after a preposition: ``for Ana``, and ``for you`` for the person.

    >>> object_form("Ana"), object_form("You")
    ('Ana', 'you')
    """
    return "you" if name.strip().lower() == PERSON.lower() else name


def display_names(seats: Sequence[str]) -> tuple[str, str, str]:
    """Seat names made distinct and safe for reading (:func:`~paston.cli.safe.shown`):
    repeated names get their seat number.

    >>> display_names(["random", "random", "Ana\x1b[2J"])
    ('random 0', 'random 1', 'Ana�[2J')
    """
    safe = [shown(name) for name in seats]
    out = [name if safe.count(name) == 1 else f"{name} {s}" for s, name in enumerate(safe)]
    return out[0], out[1], out[2]


def seat_label(seats: Sequence[str], seat: int) -> str:
    """``Ana (seat 0)``."""
    return f"{seats[seat]} (seat {seat})"


def result_lines(result: DealResult, seats: Sequence[str]) -> list[str]:
    """The result of a deal in words."""
    d = result.declarer
    lines = []
    if result.outcome is Outcome.SURRENDER:
        lines.append(f"{says(seats[d], 'surrenders')} ({Outcome.SURRENDER.rule}).")
    elif result.outcome is Outcome.UNCONTESTED:
        assert result.contract is not None
        lines.append(
            f"Both opponents pass: {says(seats[d], 'wins')} {result.contract.pretty()} uncontested "
            f"({Outcome.UNCONTESTED.rule})."
        )
    else:
        assert result.contract is not None
        lines.append(
            f"{says(seats[d], 'makes' if result.made else 'fails')} {result.contract.pretty()} with "
            f"{count(result.tricks[d], 'trick')}; "
            + ", ".join(f"{seats[s]} {result.tricks[s]}" for s in result.defenders)
            + "."
        )
    lines.append("Scores: " + ", ".join(f"{seats[s]} {signed(result.scores[s])}" for s in range(3)))
    return lines


_ROLE_WORDS = {
    Role.DECLARER: "declarer",
    Role.DEFENDER: "whist",
    Role.LONE_DEFENDER: "lone whist",
    Role.PASSED: "passed",
    Role.OPPONENT: "opponent",
}


def summary_lines(s: DealSummary, seats: Sequence[str], *, target: int) -> list[str]:
    """The end of a deal for people (:mod:`paston.summary`): the outcome, each seat's
    tricks against what it needed, its score with the line of R7 that gave it and its
    new total (resets marked), and the cards as dealt."""
    if s.redeal is not None:
        return [s.redeal.text]
    assert s.outcome is not None and s.declarer is not None
    name = seats[s.declarer]
    rule = s.outcome.rule
    if s.outcome is Outcome.SURRENDER:
        head = f"{says(name, 'surrenders')} ({rule})."
    elif s.outcome is Outcome.UNCONTESTED:
        assert s.contract is not None
        head = f"Both opponents pass: {says(name, 'wins')} {s.contract.pretty()} without play ({rule})."
    else:
        assert s.contract is not None
        taken = count(s.seats[s.declarer].tricks or 0, "trick")
        if s.made:
            head = f"{says(name, 'makes')} {s.contract.pretty()}: {taken} of the 6 needed."
        else:
            head = f"{says(name, 'fails')} {s.contract.pretty()}: {taken}, {s.short} short of 6."
    out = [head]
    if s.all_passed:
        out.append("All three passed in the auction (R3.4).")
    width = max(len(n) for n in seats)
    for line in s.seats:
        tricks = "-" if line.tricks is None else f"{line.tricks} of {line.needed}"
        reset = f" (exactly -{target}: reset to 0, R8.2)" if line.reset else ""
        who = f"{seats[line.seat]:>{width}}  {_ROLE_WORDS[line.role]:<10} {tricks:>7}"
        out.append(f"  {who}  {signed(line.score):>4}  {line.rule}: {line.text}  → total {line.total}{reset}")
    out.append("Cards as dealt:")
    for line in s.seats:
        out.append(f"  {seats[line.seat]:>{width}}: {line.hand.pretty()}")
    out.append(f"  {'prikup':>{width}}: {s.prikup.pretty()}")
    if s.discard:
        out.append(f"  {'discard':>{width}}: {s.discard.pretty()}")
    return out


def deal_account(
    deal: Deal,
    seats: Sequence[str],
    *,
    number: int,
    totals: tuple[int, int, int] | None = None,
    previous_totals: tuple[int, int, int] | None = None,
) -> list[str]:
    """A full after-the-deal account: hands, auction, contract, defence, tricks, scores."""
    out = [f"Deal {number} — dealer {seat_label(seats, deal.dealer)}"]
    for seat in range(3):
        hand = CardSet(c.index for c in dealt_order(deal.deck, seat, deal.dealer))
        out.append(f"  {seats[seat]:>12}: {hand.pretty()}")
    out.append(f"  {'prikup':>12}: {CardSet([deal.deck[6], deal.deck[7]]).pretty()}")
    if deal.redeal is not None and deal.redeal.at_deal_time:
        out.append("  " + deal.redeal.text)
        return out
    assert deal.first_bidder is not None
    out.append(f"  First to bid: {seats[deal.first_bidder]}")
    auction = []
    middle: list[str] = []
    defence = []
    stage = "auction"
    for e in deal.events:
        kind = e.action.kind
        if stage == "auction" and kind in (Kind.BID, Kind.PASS):
            auction.append(f"{seats[e.seat]} {e.action.pretty()}")
            continue
        stage = "after"
        if kind is Kind.DISCARD:
            middle.append(
                f"  {says(seats[e.seat], 'takes')} the prikup and {conjugate(seats[e.seat], 'discards')} "
                f"{CardSet(e.action.cards).pretty()}"
            )
        elif kind is Kind.TRUMP:
            assert e.action.contract is not None
            middle.append(f"  {says(seats[e.seat], 'names')} {e.action.contract.pretty()}")
        # a surrender (Kind.SURRENDER) is told once, by the result's line
        elif kind in (Kind.WHIST, Kind.PASS):
            defence.append(f"{seats[e.seat]} {kind.value}")
    if auction:
        out.append("  Auction: " + ", ".join(auction))
    if deal.redeal is not None:  # void after the auction (R3.4)
        out.append("  " + deal.redeal.text)
        return out
    out.extend(middle)
    trick_lines: list[str] = []
    if defence:
        out.append("  Defence: " + ", ".join(defence))
    for n, trick in enumerate(deal.completed_tricks, start=1):
        plays = "  ".join(f"{seats[s]} {c.pretty()}" for s, c in trick.plays)
        trick_lines.append(f"    {n:>2}. {plays}  → {seats[trick.winner]}")
    current = deal.current_trick
    if current:
        plays = "  ".join(f"{seats[s]} {c.pretty()}" for s, c in current)
        trick_lines.append(f"    {len(deal.completed_tricks) + 1:>2}. {plays}  (unfinished)")
    if trick_lines:
        out.append("  Tricks:")
        out.extend(trick_lines)
    if deal.result is None:
        out.append("  (deal unfinished)")
        return out
    out.extend("  " + line for line in result_lines(deal.result, seats))
    if totals is not None:
        marks = []
        resets = (
            reset_seats(previous_totals, deal.result.scores, rules=deal.rules)
            if previous_totals is not None
            else ()
        )
        for s in range(3):
            reset = s in resets
            marks.append(
                f"{seats[s]} {totals[s]}"
                + (f" (reset from -{deal.rules.target} to 0, R8.2)" if reset else "")
            )
        out.append("  Totals: " + ", ".join(marks))
    return out


def match_account(match: Match) -> list[str]:
    """A deal-by-deal account of a whole game."""
    seats = display_names(match.seats)
    out = [
        "Paston — " + ", ".join(seat_label(seats, s) for s in range(3)),
        f"Rules: {match.rules.describe()}",
        "",
    ]
    number = 0
    previous: tuple[int, int, int] = (0, 0, 0)
    for deal, totals in zip(match.deals, match.deal_totals, strict=True):
        if deal.redeal is None:
            number += 1
        label = number + 1 if deal.redeal is not None else number
        out.extend(deal_account(deal, seats, number=label, totals=totals, previous_totals=previous))
        out.append("")
        if totals is not None:
            previous = totals
    if match.winners:
        names = " and ".join(seats[s] for s in match.winners)
        verb = "share the victory" if len(match.winners) > 1 else conjugate(names, "wins")
        out.append(f"{names} {verb} with {max(match.totals)} (R8.3).")
    else:
        out.append("The game is unfinished.")
    return out
