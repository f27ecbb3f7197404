"""A chaos run of a Paston cluster, in the spirit of Jepsen: PostgreSQL, Redis and three
``paston serve`` workers (:mod:`paston.testing.services`), scripted people and computer
players on many tables (:mod:`paston.testing.players`), a random schedule of faults, and
a checker over the whole history once it is over (:mod:`paston.testing.history`).

The faults, one at a time with a random pause between them (the schedule comes from
the seed):

- ``kill``: ``kill -9`` of a worker, started again on its port 0.5–2 s later;
- ``pause``: ``SIGSTOP`` of a worker for 1.5–2.5 leases (its leases run out and its
  tables are claimed elsewhere), then ``SIGCONT``: it wakes up believing it owns them;
- ``redis``: Redis killed and started again empty (every lease and owner gone);
- ``postgres``: PostgreSQL stopped at once (``-m immediate``, as a power cut) and
  started again 0.5–1.5 s later;
- ``cut``: the sockets of a few playing seats cut just before or just after a move's
  acknowledgement (the move is sent again on the next socket).

A worker's clock is not skewed (that needs a fake clock in the worker's process; the
fencing tokens do not depend on clocks, the leases' expiry is Redis's own).

Tables alternate between three scripted people and one person with two ``heuristic``
computer players; a finished game is followed by a new table in its slot. The run
ends ``heal`` seconds after the last fault has healed; the checker then reads the
database and asks every worker. Run it with ``python benchmarks/chaos.py``.

>>> Schedule(7).kinds(5) == Schedule(7).kinds(5)
True
>>> sorted(Schedule(7).kinds(5)) == sorted(FAULTS)
True
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paston.testing.history import (
    Violation,
    ack_violations,
    load_violations,
    log_violations,
    read_history,
    record_violations,
    stall_violations,
)
from paston.testing.players import ScriptedSeat
from paston.testing.services import Postgres, Redis, ServiceError, Worker

FAULTS = ("kill", "pause", "redis", "postgres", "cut")
#: The lease of a cluster worker (seconds; :data:`paston.server.cluster.node.LEASE_SECONDS`).
LEASE = 3.0


class Schedule:
    """The random choices of a run, all from one seed: which fault, on what, how long.
    The kinds come out of a shuffled bag of every kind, so that each kind is injected
    once in every ``len(faults)`` faults (a short run meets them all)."""

    def __init__(self, seed: int, faults: Sequence[str] = FAULTS) -> None:
        self.rng = random.Random(seed)
        self.faults = tuple(faults)
        self._bag: list[str] = []

    def kinds(self, n: int) -> list[str]:
        return [self.next_kind() for _ in range(n)]

    def next_kind(self) -> str:
        if not self._bag:
            self._bag = list(self.faults)
            self.rng.shuffle(self._bag)
        return self._bag.pop()

    def gap(self) -> float:
        return self.rng.uniform(0.5, 2.0)


@dataclass
class Fault:
    """One fault injected: when (seconds into the run), what, on what, how long it lasted."""

    at: float
    kind: str
    target: str
    seconds: float


@dataclass
class Report:
    """What a chaos run did and found."""

    seconds: float
    faults: list[Fault]
    tables: int
    finished: int
    moves: int
    acknowledged: int
    duplicates: int
    reconnects: int
    cuts: int
    resends: int
    violations: list[Violation]
    errors: Counter[str] = field(default_factory=Counter)

    def summary(self) -> str:
        kinds = Counter(f.kind for f in self.faults)
        lines = [
            f"chaos: {self.seconds:.0f} s, {len(self.faults)} faults ("
            + ", ".join(f"{k} {kinds[k]}" for k in FAULTS if kinds[k])
            + ")",
            f"tables {self.tables} (games finished {self.finished}), moves {self.moves}, "
            f"acknowledged to people {self.acknowledged} (of them resent and acknowledged once: "
            f"{self.duplicates}), reconnections {self.reconnects}, sockets cut {self.cuts}, "
            f"moves sent again on an open socket {self.resends}",
            "errors the players were sent: "
            + (", ".join(f"{k} {v}" for k, v in self.errors.most_common()) or "none"),
            f"violations: {len(self.violations)}",
            *(f"  {n} x {kind}" for kind, n in Counter(v.kind for v in self.violations).most_common()),
            *(f"  {v}" for v in self.violations[:20]),
        ]
        return "\n".join(lines)


@dataclass
class Slot:
    """One table slot: the tables it played, one after another, with their seats."""

    tables: list[tuple[str, list[ScriptedSeat]]] = field(default_factory=list)


class Chaos:
    """One run (see the module's text). ``seconds``: how long faults are injected;
    ``heal``: how long play goes on after the last fault healed."""

    def __init__(
        self,
        *,
        seconds: float = 40.0,
        heal: float = 15.0,
        slots: int = 6,
        workers: int = 3,
        seed: int = 0,
        target: int = 20,
        stall_limit: float = 10.0,
        faults: Sequence[str] = FAULTS,
        folder: Path | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        self.seconds, self.heal, self.slots, self.n_workers = seconds, heal, slots, workers
        self.seed, self.target, self.stall_limit = seed, target, stall_limit
        self.schedule = Schedule(seed, faults)
        self.folder = folder or Path(tempfile.mkdtemp(prefix="paston-chaos-"))
        self.progress = progress or (lambda line: None)
        self.faults: list[Fault] = []
        self.workers: list[Worker] = []
        self.started = 0.0
        self.healed_at = 0.0  # time.time() when the last fault healed
        self.stopped_at = 0.0  # time.time() when the players stopped
        self.stop_at = float("inf")  # time.monotonic(): the players stop
        self._seats: list[ScriptedSeat] = []
        self._lock = threading.Lock()

    # --- the run --------------------------------------------------------------------------
    def run(self) -> Report:
        postgres = Postgres()
        redis = Redis()
        try:
            self.workers = [
                Worker(self.folder, postgres.url, redis.url, f"w{i}") for i in range(self.n_workers)
            ]
            threads = [threading.Thread(target=w.start) for w in self.workers]  # together: migrations race
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            if not all(w.alive for w in self.workers):
                raise ServiceError(
                    "a worker did not start:\n" + "\n".join(w.log()[-2000:] for w in self.workers)
                )
            self.progress(f"{self.n_workers} workers up; faults for {self.seconds:.0f} s")
            slots = asyncio.run(self._play(postgres, redis))
            for w in self.workers:
                if w.paused:
                    w.resume()
                if not w.alive:
                    w.start()
            return self._check(postgres.url, slots)
        finally:
            for w in self.workers:
                w.stop()
            redis.close()
            postgres.close()

    async def _play(self, postgres: Postgres, redis: Redis) -> list[Slot]:
        self.started = time.monotonic()
        slots = [Slot() for _ in range(self.slots)]
        players = [asyncio.create_task(self._slot(i, slot)) for i, slot in enumerate(slots)]
        await self._inject(postgres, redis)
        self.healed_at = time.time()
        self.stop_at = time.monotonic() + self.heal
        with self._lock:
            for seat in self._seats:
                seat.deadline = min(seat.deadline, self.stop_at)
        self.progress(f"faults over ({len(self.faults)}); healed, playing on for {self.heal:.0f} s")
        await asyncio.gather(*players)
        self.stopped_at = time.time()
        return slots

    async def _slot(self, index: int, slot: Slot) -> None:
        rng = random.Random(f"{self.seed}/slot{index}")
        while time.monotonic() < self.stop_at - 5:
            made = await asyncio.to_thread(self._new_table, index, len(slot.tables), rng)
            if made is None:
                await asyncio.sleep(0.5)
                continue
            _, seats = made
            slot.tables.append(made)
            with self._lock:
                self._seats.extend(seats)
            await asyncio.gather(*(s.play(self.stop_at) for s in seats))
            if not all(s.finished for s in seats):
                return  # the run ended with this game under way

    def _live(self) -> list[Worker]:
        return [w for w in self.workers if w.alive and not w.paused]

    def _new_table(
        self, index: int, number: int, rng: random.Random
    ) -> tuple[str, list[ScriptedSeat]] | None:
        """A table made and seated through the live workers (``None``: they refused now)."""
        people = 3 if (index + number) % 2 == 0 else 1
        specs = [{"kind": "human"}] * people + [{"kind": "bot", "bot": "heuristic"}] * (3 - people)
        body = {"name": f"Chaos {index}.{number}", "rules": {"target": self.target}, "seats": specs}
        try:
            live = self._live()
            if not live:
                return None
            status, made = rng.choice(live).request("POST", "/api/tables", body, timeout=5)
            if status != 201:
                return None
            table_id = str(made["id"])
            seats = []
            for seat in range(people):
                for _ in range(20):
                    live = self._live() or self.workers
                    status, taken = rng.choice(live).request(
                        "POST", f"/api/tables/{table_id}/seats/{seat}", {"name": f"P{seat}"}, timeout=5
                    )
                    if status == 200:
                        break
                    time.sleep(0.3)
                else:
                    return None
                urls = [w.ws_base for w in self.workers]
                seats.append(
                    ScriptedSeat(
                        table_id, seat, str(taken["token"]), urls, at=rng.randrange(len(urls)), think=0.02
                    )
                )
            return table_id, seats
        except (OSError, ValueError, KeyError):
            return None

    # --- the faults -------------------------------------------------------------------------
    async def _inject(self, postgres: Postgres, redis: Redis) -> None:
        end = self.started + self.seconds
        while time.monotonic() < end:
            await asyncio.sleep(self.schedule.gap())
            kind = self.schedule.next_kind()
            at = time.monotonic()
            target = await self._fault(kind, postgres, redis)
            if target is not None:
                self.faults.append(Fault(at - self.started, kind, target, time.monotonic() - at))
                self.progress(f"{at - self.started:6.1f} s  {kind:<8} {target}")

    async def _fault(self, kind: str, postgres: Postgres, redis: Redis) -> str | None:
        rng = self.schedule.rng
        if kind in ("kill", "pause"):
            live = self._live()
            if len(live) < 2:  # keep one worker serving
                return None
            worker = rng.choice(live)
            if kind == "kill":
                worker.kill()
                await asyncio.sleep(rng.uniform(0.5, 2.0))
                await asyncio.to_thread(worker.start)
            else:
                worker.pause()
                await asyncio.sleep(rng.uniform(1.5, 2.5) * LEASE)
                worker.resume()
            return worker.name
        if kind == "redis":
            await asyncio.to_thread(redis.restart_empty)
            return "redis"
        if kind == "postgres":
            await asyncio.to_thread(postgres.crash)
            await asyncio.sleep(rng.uniform(0.5, 1.5))
            await asyncio.to_thread(postgres.start)
            return "postgres"
        with self._lock:
            playing = [s for s in self._seats if not s.finished and s.cut_next is None]
        chosen = rng.sample(playing, min(3, len(playing)))
        for seat in chosen:
            seat.cut_next = rng.choice(("before-ack", "after-ack"))
        return f"{len(chosen)} sockets" if chosen else None

    # --- the check --------------------------------------------------------------------------
    def _check(self, database_url: str, slots: list[Slot]) -> Report:
        history = read_history(database_url)
        until = self.stopped_at - 0.5
        gets = {w.name: (lambda method, path, w=w: w.request(method, path, timeout=20)) for w in self.workers}
        violations: list[Violation] = []
        games = [(table_id, seats) for slot in slots for table_id, seats in slot.tables]
        finished = 0
        for table_id, seats in games:
            stored = history.get(table_id)
            if stored is None:
                violations.append(Violation(table_id, "made, but not in the database"))
                continue
            violations += log_violations(table_id, stored.rows)
            for s in seats:
                violations += ack_violations(table_id, s.seat, s.acked, stored.rows)
            violations += load_violations(table_id, stored.rows, gets)
            stalled = stall_violations(table_id, stored, self.healed_at, until, self.stall_limit)
            for v in stalled:  # what the table's people saw, to tell where it stopped
                seen = "; ".join(s.describe() for s in seats)
                violations.append(Violation(table_id, f"{v.what}; log at {len(stored.rows)}; {seen}"))
            if stored.finished is not None:
                finished += 1
                status, record = self.workers[0].request("GET", f"/api/tables/{table_id}/record", timeout=20)
                if status != 200:
                    violations.append(Violation(table_id, f"the record of a finished game answers {status}"))
                else:
                    violations += record_violations(table_id, record)
        seats_all = [s for _, seats in games for s in seats]
        errors: Counter[str] = Counter()
        for s in seats_all:
            errors.update(s.errors)
        return Report(
            seconds=time.monotonic() - self.started,
            faults=self.faults,
            tables=len(games),
            finished=finished,
            moves=sum(len(history[t].rows) for t, _ in games if t in history),
            acknowledged=sum(len(s.acked) for s in seats_all),
            duplicates=sum(a.duplicate for s in seats_all for a in s.acked),
            reconnects=sum(s.reconnects for s in seats_all),
            cuts=sum(s.cuts for s in seats_all),
            resends=sum(s.resends for s in seats_all),
            violations=violations,
            errors=errors,
        )


def run_chaos(**options: Any) -> Report:
    """One chaos run with :class:`Chaos`'s options; its report."""
    return Chaos(**options).run()
