"""A live table: its seats, its :class:`~paston.match.Match` (which holds the rules,
once), who is connected, and the public facts about it (summary, score sheet)."""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from paston.match import Match
from paston.rules import Rules
from paston.scoring import reset_seats
from paston.server.tables.commands import RecentCommands
from paston.server.tables.connection import Connection
from paston.server.tables.decks import SeedRound
from paston.server.tables.seating import Seat, seat_names_of
from paston.server.work.botjobs import BotSeat

#: Seconds a finished deal stays on show (see :mod:`paston.server.tables.pause`), unless the table says.
NEXT_DEAL_SECONDS = 30.0


def table_summary(
    table_id: str,
    name: str,
    rules: Rules,
    seats: Sequence[Seat],
    *,
    finished: bool,
    version: int,
    takeover_seconds: float | None,
    rematch: str | None,
    online: Callable[[int], bool],
    standing_in: Callable[[int], bool],
    hints: bool = False,
    next_deal_seconds: float = NEXT_DEAL_SECONDS,
    lesson: str | None = None,
) -> dict[str, Any]:
    """Public facts about a table (lobby, headers), live or only stored."""
    names = seat_names_of(seats)
    return {
        "id": table_id,
        "name": name,
        "rules": rules.to_dict(),
        "finished": finished,
        "version": version,
        "takeover_seconds": takeover_seconds,
        "hints": hints,
        "next_deal_seconds": next_deal_seconds,
        "lesson": lesson,
        "rematch": rematch,
        "seats": [
            {
                "seat": i,
                "kind": s.kind,
                "bot": s.bot,
                "name": names[i],
                "taken": s.taken,
                "online": s.kind == "bot" or online(i),
                "standin": s.kind == "human" and s.taken and standing_in(i),
            }
            for i, s in enumerate(seats)
        ],
    }


@dataclass(eq=False)
class Pause:
    """A finished deal on show: its index, how long at most, who must press Next (the
    pause itself is run by :mod:`paston.server.tables.pause`)."""

    deal: int
    seconds: float
    expected: frozenset[int]
    started: float = field(default_factory=time.monotonic)
    pressed: set[int] = field(default_factory=set)
    timer: asyncio.Task[None] | None = None
    grace_until: float | None = None  # resumed: everyone seated holds it until then (monotonic)

    def ends_in(self) -> float:
        """Seconds until the pause ends by itself."""
        return max(0.0, self.started + self.seconds - time.monotonic())


@dataclass
class Table:
    """A live table."""

    id: str
    name: str
    seats: list[Seat]
    match: Match
    seeds: list[tuple[str, str]] = field(default_factory=list)  # (secret, commit) per entry of match.deals
    fairness: list[dict[str, Any] | None] = field(default_factory=list)  # the record's, per deal
    round: SeedRound | None = None  # the next deal's seeds being collected
    seeders: weakref.WeakSet[Connection] = field(default_factory=weakref.WeakSet)  # clients that send seeds
    version: int = 0  # number of accepted actions
    finished: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: list[Connection] = field(default_factory=list)
    bots: dict[int, BotSeat] = field(default_factory=dict)
    recent: RecentCommands = field(default_factory=RecentCommands)  # (seat, command id) -> what it did
    bot_task: asyncio.Task[None] | None = None
    takeover_seconds: float | None = None  # a bot plays for a person offline this long
    hints: bool = False  # a practice table: people may ask for hints (server/tables/hints.py)
    # a private table (a lesson's): not in the lobby, no seat or watching for strangers,
    # forgotten once its person leaves (server/tables/retire.py)
    listed: bool = True
    lesson: str | None = None  # a lesson table: the course's lesson its first deal is (server/lessons)
    offline_since: dict[int, float] = field(default_factory=dict)
    standins: dict[int, BotSeat] = field(default_factory=dict)
    watched_at: float = float("-inf")  # when someone was last seen connected (computer players)
    rematch: str | None = None
    # a rematch's people seats kept for the players of the game before (seat -> until when,
    # time.monotonic()); only the rematch request with that player's token takes one sooner
    reserved: dict[int, float] = field(default_factory=dict)
    joining: int = 0  # connections waiting for the lock to join: the table stays in memory
    retired: bool = False  # idle long enough to leave memory and the lobby (see server/tables/retire.py)
    last_seen: float = field(default_factory=time.monotonic)  # someone was connected (monotonic)
    presence_at: float = float("-inf")  # when the connections last heard only who is online
    presence_call: asyncio.TimerHandle | None = None  # that news, due when the interval is up
    arrived: set[int] = field(default_factory=set)  # people's seats seen since the first deal was dealt
    dropped: set[str] = field(default_factory=set)  # commitments of first-deal shuffles started over
    next_deal_seconds: float = NEXT_DEAL_SECONDS  # a finished deal stays on show at most this long
    pause: Pause | None = None  # the finished deal on show (see server/tables/pause.py)
    left_on_show: float | None = None  # rebuilt mid-pause: the seconds its pause had left
    nexters: weakref.WeakSet[Connection] = field(default_factory=weakref.WeakSet)  # clients that show it
    fence: int | None = None  # this server's fencing token for the table, in a cluster (server/cluster)
    # left this worker's memory (a cluster: another worker owns it): nothing more runs for
    # this copy, and none of its changes reaches the database
    gone: bool = False

    @property
    def rules(self) -> Rules:
        """The table's rules (its match's)."""
        return self.match.rules

    def seat_names(self) -> list[str]:
        return seat_names_of(self.seats)

    def name_seats(self) -> None:
        """Give the match the seats' display names (after a seat changes hands)."""
        self.match.seats = tuple(self.seat_names())  # type: ignore[assignment]

    def online(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def seed_seats(self) -> frozenset[int]:
        """The seats whose person's client is asked for a seed now: connected with a
        client that sends seeds, and not stood in for (a computer player's seat, a
        stand-in, an empty or offline seat get the server's seed at once)."""
        return frozenset(
            c.seat
            for c in self.connections
            if c.seat is not None
            and not c.closed
            and c in self.seeders
            and self.seats[c.seat].kind == "human"
            and not self.standing_in(c.seat)
        )

    def next_seats(self) -> frozenset[int]:
        """The seats whose person holds the end of a deal on show now: connected with a
        client that shows it and sends Next, and not stood in for."""
        return frozenset(
            c.seat
            for c in self.connections
            if c.seat is not None
            and not c.closed
            and c in self.nexters
            and self.seats[c.seat].kind == "human"
            and not self.standing_in(c.seat)
        )

    def shows_deal_ends(self) -> bool:
        """Whether a client connected now shows each finished deal (a browser: its
        end-of-deal panel has a place for the deal's analysis), so the analysis is worth
        starting as soon as the deal ends. Other clients get it when they ask."""
        return any(not c.closed and c in self.nexters for c in self.connections)

    @property
    def provisional(self) -> bool:
        """Whether the first deal is still provisional: nobody has acted yet, so it may be
        shuffled again with the seeds of people who come (docs/FAIRNESS.md)."""
        return self.version == 0 and not self.finished

    @property
    def reshuffling(self) -> bool:
        """Whether the provisional first deal is being shuffled again (actions wait)."""
        return self.round is not None and self.round.again

    def waits_for_people(self) -> bool:
        """Whether computer players wait: the first deal is being shuffled again, or it is
        provisional and a person's seat is empty or its person has not come yet (and no
        stand-in plays for them)."""
        if self.reshuffling:
            return True
        return self.provisional and any(
            s.kind == "human" and (not s.taken or (i not in self.arrived and not self.standing_in(i)))
            for i, s in enumerate(self.seats)
        )

    def restart_match(self) -> None:
        """Forget the provisional first deal (and its redeals): a new match, same seats,
        first dealer and rules, with nothing dealt."""
        old = self.match
        self.match = Match(first_dealer=old.first_dealer, rules=old.rules, seats=old.seats)
        self.dropped.update(commit for _, commit in self.seeds)
        self.seeds.clear()
        self.fairness.clear()

    def offline_for(self, seat: int) -> float:
        """Seconds since the seat's person was last connected (0 while connected)."""
        if self.online(seat):
            return 0.0
        return time.monotonic() - self.offline_since.setdefault(seat, time.monotonic())

    def standing_in(self, seat: int) -> bool:
        """Whether a bot now plays for this person's seat (the table's takeover setting)."""
        s = self.seats[seat]
        return (
            not self.finished
            and self.takeover_seconds is not None
            and s.kind == "human"
            and s.taken
            and self.offline_for(seat) >= self.takeover_seconds
        )

    def in_use(self) -> bool:
        """Whether someone watches the table, is joining it, or a computer player is at work."""
        return bool(
            self.connections or self.joining or (self.bot_task is not None and not self.bot_task.done())
        )

    def summary(self) -> dict[str, Any]:
        """Public facts about the table (lobby, headers)."""
        return table_summary(
            self.id,
            self.name,
            self.rules,
            self.seats,
            finished=self.finished,
            version=self.version,
            takeover_seconds=self.takeover_seconds,
            rematch=self.rematch,
            online=self.online,
            standing_in=self.standing_in,
            hints=self.hints,
            next_deal_seconds=self.next_deal_seconds,
            lesson=self.lesson,
        )

    def sheet(self) -> list[dict[str, Any]]:
        """Deal-by-deal scores and running totals, with the resets of R8.2 marked."""
        rows = []
        previous = (0, 0, 0)
        number = 0
        for index, (deal, totals) in enumerate(zip(self.match.deals, self.match.deal_totals, strict=True)):
            if deal.result is None or totals is None:
                continue
            number += 1
            scores = deal.result.scores
            rows.append(
                {
                    "deal": number,
                    "index": index,  # in the record's deals: the analysis's address
                    "declarer": deal.result.declarer,
                    "outcome": deal.result.outcome,
                    "contract": None if deal.result.contract is None else deal.result.contract.name_in_record,
                    "scores": list(scores),
                    "totals": list(totals),
                    "resets": list(reset_seats(previous, scores, rules=self.rules)),
                }
            )
            previous = totals
        return rows
