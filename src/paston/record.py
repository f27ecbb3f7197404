"""Write, read and validate ``paston/1`` game records (RECORD.md).

The reader replays every record through the engine and rejects anything that
breaks a rule, naming the game, deal, action index and rule.

>>> import random
>>> from paston.match import Match
>>> from paston.bots import RandomPlayer
>>> match = Match(first_dealer=2, rng=random.Random(4))
>>> bot = RandomPlayer(seed=4)
>>> while not match.is_over:
...     _ = match.apply(bot.choose(match.view(match.to_move)))
>>> text = dumps(match)
>>> dumps(loads(text)) == text
True
>>> bad = to_record(match)
>>> bad["deals"][-1]["result"]["scores"][0] += 1
>>> try:
...     from_record(bad)
... except RecordError as err:
...     print(err.rule)
R7
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from paston import fairness as fair
from paston.actions import Action
from paston.cards import ALL_CARDS
from paston.deal import Deal
from paston.dealing import dealt_order
from paston.errors import IllegalActionError, ParseError, RecordError, RulesError, json_kind, json_text
from paston.match import Match
from paston.result import Redeal
from paston.rules import Rules

FORMAT = "paston/1"
_TOP_KEYS = ("format", "rules", "seats", "first_dealer", "deals", "winners")
#: Optional top-level keys: ``undo`` (true: a person could take back their own moves in
#: this game against computer players; the undone moves are not in the record).
_OPTIONAL_TOP_KEYS = ("undo",)
_REDEALS = tuple(str(r) for r in Redeal)


# --- writing -------------------------------------------------------------------------
def deal_to_record(
    deal: Deal, totals: tuple[int, int, int] | None, fairness: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One entry of ``deals`` (with its ``fairness`` object when there is one)."""
    entry: dict[str, Any] = {
        "dealer": deal.dealer,
        "deck": [str(ALL_CARDS[c]) for c in deal.deck],
        "hands": [[str(c) for c in dealt_order(deal.deck, s, deal.dealer)] for s in range(3)],
        "prikup": [str(ALL_CARDS[deal.deck[6]]), str(ALL_CARDS[deal.deck[7]])],
        "redeal": None if deal.redeal is None else str(deal.redeal),
    }
    if deal.first_bidder is not None:
        entry["first_bidder"] = deal.first_bidder
    entry["actions"] = [e.to_record() for e in deal.events]
    if deal.result is not None:
        entry["result"] = deal.result.to_record()
        if totals is not None:
            entry["totals"] = list(totals)
    if fairness is not None:
        entry["fairness"] = fairness
    return entry


def to_record(match: Match, fairness: Sequence[dict[str, Any] | None] = ()) -> dict[str, Any]:
    """The ``paston/1`` object of a match (finished or not); ``fairness`` holds the
    ``fairness`` object of each deal (or ``None``), when the deals were shuffled by
    :mod:`paston.fairness`."""
    entries = list(fairness) + [None] * (len(match.deals) - len(fairness))
    return {
        "format": FORMAT,
        "rules": match.rules.to_dict(),
        "seats": list(match.seats),
        "first_dealer": match.first_dealer,
        "deals": [
            deal_to_record(d, t, f) for d, t, f in zip(match.deals, match.deal_totals, entries, strict=True)
        ],
        "winners": list(match.winners),
        **({"undo": True} if match.undo_allowed else {}),
    }


def dumps(match: Match, *, indent: int | None = None) -> str:
    """A record as JSON text: one line by default (for JSON Lines)."""
    if indent is None:
        return json.dumps(to_record(match), ensure_ascii=False, separators=(",", ":"))
    return json.dumps(to_record(match), ensure_ascii=False, indent=indent)


def write_jsonl(path: str | Path, matches: Iterable[Match]) -> int:
    """Write records as JSON Lines; returns how many were written."""
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for m in matches:
            f.write(dumps(m) + "\n")
            n += 1
    return n


# --- reading -------------------------------------------------------------------------
def _fail(
    message: str,
    *,
    deal: int | None = None,
    action: int | None = None,
    rule: str | None = None,
    code: str = "record",
) -> RecordError:
    return RecordError(message, deal=deal, action=action, rule=rule, code=code)


def _card_list(value: object, n: int, what: str, deal: int) -> list[int]:
    if not isinstance(value, list) or len(value) != n:
        raise _fail(f"{what} must be a list of {n} card codes", deal=deal, rule="R1.3")
    out = []
    for code in value:
        card = _CODES.get(code) if isinstance(code, str) else None
        if card is None:
            raise _fail(
                f"{what}: cannot parse card {json_text(code)}", deal=deal, rule="R0.2", code="parse-card"
            )
        out.append(card)
    return out


_CODES = {str(c): c.index for c in ALL_CARDS}


def _strict_equal(a: object, b: object) -> bool:
    """JSON equality that also compares types (``1.0`` and ``True`` are not ``1``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_strict_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_strict_equal(a[k], b[k]) for k in a)
    return a == b


def _check_int(value: object, lo: int, hi: int) -> bool:
    return type(value) is int and lo <= value <= hi


def from_record(obj: object) -> Match:
    """Replay a record object into a :class:`Match`; :class:`RecordError` if broken."""
    return read_record(obj)[0]


def read_record(obj: object) -> tuple[Match, list[dict[str, Any] | None]]:
    """Replay a record object into a :class:`Match`, with each deal's checked
    ``fairness`` object (or ``None``), so that :func:`to_record` writes it back whole;
    :class:`RecordError` if broken.

    >>> from paston.fairness import derive_deck, make_entry
    >>> match = Match(first_dealer=0)
    >>> deck = derive_deck("ab" * 32, "t1", 0, None, ["cd" * 32] * 3)
    >>> _ = match.deal_next(deck)
    >>> entry = make_entry("t1", 0, "ab" * 32, [("cd" * 32, "seat")] * 3, None)
    >>> record = to_record(match, [entry])
    >>> again, fairness = read_record(record)
    >>> to_record(again, fairness) == record
    True
    """
    if not isinstance(obj, dict):
        raise _fail(f"a record must be a JSON object, not {json_kind(obj)}")
    if obj.get("format") != FORMAT:
        raise _fail(f"format must be {json_text(FORMAT)}, not {json_text(obj.get('format'))}", code="format")
    missing = [k for k in _TOP_KEYS if k not in obj]
    extra = sorted(set(obj) - set(_TOP_KEYS) - set(_OPTIONAL_TOP_KEYS))
    if missing or extra:
        raise _fail(f"record keys: missing {missing}, unknown {extra}", code="keys")
    try:
        rules = Rules.from_dict(obj["rules"])
    except RulesError as err:
        raise _fail(str(err), code="rules") from None
    seats = obj["seats"]
    if not isinstance(seats, list) or len(seats) != 3 or not all(isinstance(s, str) for s in seats):
        raise _fail("seats must be a list of three names", rule="R0.1")
    if not _check_int(obj["first_dealer"], 0, 2):
        raise _fail(f"first_dealer must be 0, 1 or 2, not {json_text(obj['first_dealer'])}", rule="R1.1")
    deals = obj["deals"]
    if not isinstance(deals, list):
        raise _fail("deals must be a list")
    match = Match(first_dealer=obj["first_dealer"], rules=rules, seats=seats)
    if "undo" in obj:
        if not isinstance(obj["undo"], bool):
            raise _fail(f"undo must be true or false, not {json_text(obj['undo'])}", code="undo")
        match.undo_allowed = obj["undo"]
    chain = fair.Chain()
    kept: list[dict[str, Any] | None] = []
    for i, entry in enumerate(deals):
        _replay_deal(match, entry, i, last=i == len(deals) - 1)
        if "fairness" in entry and entry["fairness"] is None:
            raise _fail("fairness must be a JSON object (or absent)", deal=i, code="fairness")
        why = chain.check(entry.get("fairness"), match.deals[-1].deck, i)
        if why is not None:
            raise _fail(why, deal=i, rule="R1.2", code="fairness")
        kept.append(entry.get("fairness"))
    winners = obj["winners"]
    if not _strict_equal(winners, list(match.winners)):
        raise _fail(
            f"winners are {list(match.winners)} by the totals, not {json_text(winners)}",
            rule="R8.3",
            code="winners",
        )
    return match, kept


def _replay_deal(match: Match, entry: object, i: int, *, last: bool) -> None:
    if not isinstance(entry, dict):
        raise _fail("a deal must be a JSON object", deal=i)
    if match.is_over:
        raise _fail("the game was already won; no deal may follow", deal=i, rule="R8.3", code="after-end")
    required = {"dealer", "deck", "hands", "prikup", "redeal", "actions"}
    allowed = required | {"first_bidder", "result", "totals", "fairness"}
    if not required <= set(entry) or not set(entry) <= allowed:
        raise _fail(
            f"deal keys: missing {sorted(required - set(entry))}, unknown {sorted(set(entry) - allowed)}",
            deal=i,
            code="keys",
        )
    expected_dealer = match.next_dealer
    if not _strict_equal(entry["dealer"], expected_dealer):
        previous = match.deals[-1] if match.deals else None
        if previous is None:
            rule = "R1.1"
        elif previous.redeal is not None:
            rule = "R1.6"
        elif match.completed_deals == 1:
            rule = "R2.2"
        else:
            rule = "R2.3"
        raise _fail(
            f"the dealer must be seat {expected_dealer}, not {json_text(entry['dealer'])}",
            deal=i,
            rule=rule,
            code="dealer",
        )
    deck = _card_list(entry["deck"], 32, "deck", i)
    try:
        deal = match.deal_next(deck)
    except ParseError as err:
        rule = "R1.2"
        raise _fail(str(err), deal=i, rule=rule, code=err.code) from None
    for seat in range(3):
        hands = entry["hands"]
        if not isinstance(hands, list) or len(hands) != 3:
            raise _fail("hands must be a list of three hands", deal=i, rule="R1.3")
        hand = _card_list(hands[seat], 10, f"hands[{seat}]", i)
        if set(hand) != {c.index for c in dealt_order(deal.deck, seat, deal.dealer)}:
            raise _fail(f"hands[{seat}] is not what the deck deals to seat {seat}", deal=i, rule="R1.3")
    prikup = _card_list(entry["prikup"], 2, "prikup", i)
    if set(prikup) != {deal.deck[6], deal.deck[7]}:
        raise _fail("prikup is not deck[6:8]", deal=i, rule="R1.3")
    redeal = entry["redeal"]
    if redeal is not None and redeal not in _REDEALS:
        raise _fail(f"unknown redeal reason {json_text(redeal)}", deal=i, code="redeal")
    actions = entry["actions"]
    if not isinstance(actions, list):
        raise _fail("actions must be a list", deal=i)
    if deal.redeal is not None and deal.redeal.at_deal_time:
        rule = deal.redeal.rule
        if redeal != deal.redeal:
            raise _fail(
                f"this deal must be redealt ({deal.redeal}), but redeal is {json_text(redeal)}",
                deal=i,
                rule=rule,
                code="redeal",
            )
        if actions or "first_bidder" in entry or "result" in entry or "totals" in entry:
            raise _fail(
                "a redealt deal has no first_bidder, actions, result or totals",
                deal=i,
                rule=rule,
                code="redeal",
            )
        return
    first_bidder = entry.get("first_bidder")
    if not _strict_equal(first_bidder, deal.first_bidder):
        rule = "R2.1" if deal.first_deal else "R2.3"
        raise _fail(
            f"the first bidder must be seat {deal.first_bidder}, not {json_text(first_bidder)}",
            deal=i,
            rule=rule,
            code="first-bidder",
        )
    for k, raw in enumerate(actions):
        if deal.is_over:
            raise _fail(
                "the deal is already over; no action may follow",
                deal=i,
                action=k,
                rule="R6.3" if deal.redeal is None else "R3.4",
                code="after-deal",
            )
        try:
            seat, action = Action.from_record(raw)
        except ParseError as err:
            card_rule = "R0.2" if err.code == "parse-card" else None
            raise _fail(str(err), deal=i, action=k, rule=card_rule, code=err.code) from None
        try:
            match.apply(action, seat)
        except IllegalActionError as err:
            raise _fail(str(err), deal=i, action=k, rule=err.rule, code=err.code) from None
    if redeal != deal.redeal:
        rule = "R3.4" if Redeal.NO_JACK_NO_SEVEN in (redeal, deal.redeal) else "R1.4"
        given = None if deal.redeal is None else str(deal.redeal)
        raise _fail(
            f"redeal is {json_text(redeal)}, but the deal gives {json_text(given)}",
            deal=i,
            rule=rule,
            code="redeal",
        )
    if deal.redeal is not None:
        if "result" in entry or "totals" in entry:
            raise _fail("a redealt deal has no result or totals", deal=i, rule="R3.4", code="redeal")
        return
    if not deal.is_over:
        if not last:
            raise _fail("only the last deal of a record may be unfinished", deal=i, code="unfinished")
        if "result" in entry or "totals" in entry:
            raise _fail("an unfinished deal has no result or totals", deal=i, code="unfinished")
        return
    assert deal.result is not None
    expected = deal.result.to_record()
    if not _strict_equal(entry.get("result"), expected):
        raise _fail(
            f"result must be {json.dumps(expected)}, not {json.dumps(entry.get('result'))}",
            deal=i,
            rule="R7",
            code="result",
        )
    totals = list(match.totals)
    if not _strict_equal(entry.get("totals"), totals):
        raise _fail(
            f"totals must be {totals}, not {json_text(entry.get('totals'))}",
            deal=i,
            rule="R8.2",
            code="totals",
        )


def loads(text: str) -> Match:
    """Read one record from JSON text."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        raise _fail(f"not valid JSON: {err}", code="json") from None
    except RecursionError:
        raise _fail("not valid JSON: nested too deeply", code="json") from None
    except ValueError:  # Python refuses to read an integer of more than 4,300 digits
        raise _fail(
            f"not valid JSON for a record: a number has more than {sys.get_int_max_str_digits()} digits",
            code="json",
        ) from None
    return from_record(obj)


def iter_file(path: str | Path) -> Iterator[Match | RecordError]:
    """Each game of a file (one JSON object, or JSON Lines), or the error it has.

    Errors carry the game's index in the file.
    """
    text = Path(path).read_text(encoding="utf-8-sig")
    stripped = text.strip()
    if not stripped:
        yield RecordError("the file holds no game record", code="empty")
        return
    try:
        whole = json.loads(stripped)
    except (ValueError, RecursionError):  # a JSON error, or an integer too long to read
        whole = None
    if isinstance(whole, dict):
        try:
            yield from_record(whole)
        except RecordError as err:
            yield err.at_game(0)
        return
    # JSON Lines are split at newlines only: str.splitlines would also split inside a
    # string holding U+2028 or U+2029, which JSON writes unescaped
    first_line = stripped.split("\n")[0]
    if whole is None and not _is_json(first_line):
        # not JSON Lines either: one broken record (e.g. a truncated pretty-printed file)
        try:
            loads(stripped)
        except RecordError as err:
            yield err.at_game(0)
        return
    game = 0
    for line in text.split("\n"):
        if not line.strip():
            continue
        try:
            yield loads(line)
        except RecordError as err:
            yield err.at_game(game)
        game += 1


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def read_file(path: str | Path) -> list[Match]:
    """All games of a file; raises the first :class:`RecordError`."""
    out = []
    for item in iter_file(path):
        if isinstance(item, RecordError):
            raise item
        out.append(item)
    return out


def iter_states(match: Match) -> Iterator[tuple[int, int, Deal]]:
    """Successive states of a game: ``(deal index, action index, state before it)``,
    then ``(deal index, len(actions), final state)`` for each deal."""
    for i, played in enumerate(match.deals):
        for k, (deal, _event) in enumerate(played.states()):
            yield i, k, deal
