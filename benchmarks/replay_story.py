"""How long the server takes to tell a game's replay, and how large it is.

    python benchmarks/replay_story.py [--games 5] [--targets 121,500,2000]

For games of computer players (``random``, which play many deals) to each target, times
what ``POST /api/replay`` does in its worker process (``replayjobs.story_of_record``:
read and check the record by replaying it, tell the story, encode it as JSON) and prints,
per target: the median deals, record size, story size and time, and the largest record
the server takes by default (``Limits.replay_bytes``) scaled from those figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from paston.bots.runner import seeded_game
from paston.record import to_record
from paston.rules import TARGET_RANGE, Rules
from paston.server.web.limits import Limits
from paston.server.web.replayjobs import story_of_record


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--targets", default="121,500,2000")
    args = parser.parse_args()
    limit = Limits().replay_bytes
    print(f"{'target':>6} {'deals':>6} {'record KB':>10} {'story KB':>9} {'ms':>8} {'ms per 100 KB':>14}")
    per_kb: list[float] = []
    for target in (int(x) for x in args.targets.split(",")):
        target = min(max(target, TARGET_RANGE[0]), TARGET_RANGE[1])
        deals, records, stories, times = [], [], [], []
        for g in range(args.games):
            match = seeded_game(f"bench-{target}-{g}", ["random"] * 3, rules=Rules(target=target))
            text = json.dumps(to_record(match))
            start = time.perf_counter()
            ok, body = story_of_record(text, None)
            times.append(time.perf_counter() - start)
            assert ok, body
            deals.append(len(match.deals))
            records.append(len(text))
            stories.append(len(body))
        ms = statistics.median(times) * 1000
        kb = statistics.median(records) / 1000
        per_kb.append(ms / kb)
        print(
            f"{target:>6} {statistics.median(deals):>6.0f} {kb:>10.1f}"
            f" {statistics.median(stories) / 1000:>9.1f} {ms:>8.1f} {100 * ms / kb:>14.1f}"
        )
    at_limit = statistics.median(per_kb) * limit / 1000
    print(f"a record at the default limit ({limit} bytes) takes about {at_limit:.0f} ms")


if __name__ == "__main__":
    main()
