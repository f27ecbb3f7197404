"""The abuse suite: every known attack on a public server, one at a time, against a fresh
``paston serve`` (computer players on, default limits, SQLite), while a control client at
a table of computer players measures its ping and HTTP latency and the server's memory.

    python benchmarks/abuse.py [--seconds 20] [--only NAME[,NAME…]] [--strict]

Goals on 2 shared cores, during every attack: control ping p99 <= 100 ms, HTTP p99 <=
250 ms, the server's memory <= +150 MiB, no traceback in its log, and an honest client
(a fresh address) served afterwards. ``--strict`` exits 1 when a goal is missed. The
attacks (``abusekit.ATTACKS``): tables, sockets, sync, hints, analysis, bodies,
spectators, slow-readers, forged-headers, rematch, bad-input.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence

from abusekit import (
    ATTACKS,
    HTTP_P99_MS,
    MEMORY_MIB,
    PING_P99_MS,
    Figures,
    Server,
    control_table,
    measure,
    rss_mib,
)


def _ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.0f}"


def _codes(figures: Figures) -> str:
    return ", ".join(f"{code} {n}" for code, n in figures.outcome.refusals.most_common(4)) or "-"


def _own(figures: Figures) -> str:
    return ", ".join(f"{k} {v:,.0f}" for k, v in figures.outcome.figures.items()) or "-"


def report(results: Sequence[Figures], load_before: tuple[float, float, float]) -> None:
    cores = os.cpu_count()
    load = os.getloadavg()
    print(
        f"\ngoals: ping p99 <= {PING_P99_MS:.0f} ms, HTTP p99 <= {HTTP_P99_MS:.0f} ms, "
        f"memory <= +{MEMORY_MIB:.0f} MiB, 0 tracebacks, honest client served"
    )
    print(
        f"machine: {cores} cores; load average before {load_before[0]:.2f}, "
        f"after {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} (1 / 5 / 15 min)\n"
    )
    columns = [
        ("attack", 15, lambda f: f.name),
        ("ping p50", 8, lambda f: _ms(f.ping_p50)),
        ("p99", 5, lambda f: _ms(f.ping_p99)),
        ("HTTP p50", 8, lambda f: _ms(f.http_p50)),
        ("p99", 5, lambda f: _ms(f.http_p99)),
        ("mem MiB", 8, lambda f: f"{f.memory_delta_mib:+.1f}"),
        ("cpu", 5, lambda f: f"{f.server_cpu:.0%}"),
        ("wrk", 5, lambda f: f"{f.workers_cpu:.0%}"),
        ("tb", 3, lambda f: str(f.tracebacks)),
        ("cr", 3, lambda f: str(f.crashes)),
        ("log", 4, lambda f: str(f.log_lines)),
        ("bots gap", 8, lambda f: f"{f.control.longest_gap_s:.1f}s"),
        ("honest", 6, lambda f: "yes" if f.honest_served else "NO"),
    ]
    head = " ".join(f"{title:<{w}}" if i == 0 else f"{title:>{w}}" for i, (title, w, _) in enumerate(columns))
    print(head + "  goals")
    print("-" * (len(head) + 7))
    for f in results:
        missed = f.misses()
        cells = " ".join(
            f"{cell(f):<{w}}" if i == 0 else f"{cell(f):>{w}}" for i, (_, w, cell) in enumerate(columns)
        )
        print(f"{cells}  {'met' if not missed else 'MISSED: ' + '; '.join(missed)}")
    print(
        "(ms; mem: the server's peak resident memory over its memory before; cpu, wrk: CPU of the "
        "server process and of its workers, 100% a core; tb, cr: tracebacks and crashes in the log; "
        "log: lines it logged; bots gap: the longest wait between two moves at the control table)"
    )
    print("\nwhat each attack was answered with (most frequent codes) and did:")
    for f in results:
        print(f"  {f.name:<15} {_codes(f)}; {_own(f)}")
    worst_ping = max((f.ping_p99 for f in results), default=float("nan"))
    worst_http = max((f.http_p99 for f in results), default=float("nan"))
    print(
        f"\nworst ping p99 {_ms(worst_ping)} ms, worst HTTP p99 {_ms(worst_http)} ms, "
        f"{sum(len(f.control.ping_ms) for f in results):,} pings and "
        f"{sum(len(f.control.http_ms) for f in results):,} requests measured"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds per attack (default 20)")
    parser.add_argument("--only", default="", help=f"comma-separated attacks, of: {', '.join(ATTACKS)}")
    parser.add_argument("--strict", action="store_true", help="exit 1 when any goal is missed")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds of quiet between attacks")
    parser.add_argument(
        "--attacker-nice",
        type=int,
        default=0,
        help="niceness added to the attacking process while it attacks (default 0: the attacker "
        "competes with the server for the cores as much as it can; 10: mostly what a remote "
        "attacker would cost)",
    )
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(ATTACKS)
    unknown = [n for n in names if n not in ATTACKS]
    if unknown:
        parser.error(f"unknown attacks {unknown}; known: {', '.join(ATTACKS)}")
    load_before = os.getloadavg()
    server = Server()
    results = []
    try:
        table = control_table(server)
        print(
            f"paston serve (pid {server.pid}, {rss_mib(server.pid) or 0:.0f} MiB), control table {table}; "
            f"{len(names)} attacks of {args.seconds:g} s, the attacker at niceness +{args.attacker_nice}"
        )
        for k, name in enumerate(names):
            time.sleep(args.settle)
            figures = measure(server, table, name, args.seconds, index=k, attacker_nice=args.attacker_nice)
            results.append(figures)
            print(
                f"  {name}: ping p99 {_ms(figures.ping_p99)} ms, HTTP p99 {_ms(figures.http_p99)} ms, "
                f"memory {figures.memory_delta_mib:+.1f} MiB, {_codes(figures)}",
                flush=True,
            )
    finally:
        server.stop()
    report(results, load_before)
    missed = [f.name for f in results if f.misses()]
    if missed:
        print(f"goals missed by: {', '.join(missed)}")
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
