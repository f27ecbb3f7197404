"""Statistics of a duplicate tournament: points per deal with bootstrap confidence
intervals, make, surrender and whist rates, contract mix, decision times.

>>> bootstrap_ci([1.0, 1.0, 1.0], resamples=100, seed=0)
(1.0, 1.0)
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from paston.eval.tournament import DealResultRow
from paston.result import Outcome


def bootstrap_ci(
    values: Sequence[float], *, resamples: int = 2000, seed: int = 0, level: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of the mean."""
    if not values:
        raise ValueError("no values")
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(resamples))
    k = int((1 - level) / 2 * resamples)
    return means[k], means[resamples - 1 - k]


@dataclass
class BotSummary:
    """Everything reported for one bot of a tournament."""

    name: str
    per_deal: list[float] = field(default_factory=list)  # mean points per seat, per deal
    declared: int = 0
    made: int = 0  # played and made, or uncontested
    surrendered: int = 0
    contracts: Counter[str] = field(default_factory=Counter)
    whist_asked: int = 0
    whisted: int = 0
    times: list[float] = field(default_factory=list)  # seconds of each decision

    @property
    def mean(self) -> float:
        """Mean points per deal (per seat it held)."""
        return statistics.fmean(self.per_deal) if self.per_deal else 0.0

    @property
    def make_rate(self) -> float:
        """Contracts made (or won uncontested) per deal declared and not surrendered."""
        played = self.declared - self.surrendered
        return self.made / played if played else 0.0

    @property
    def surrender_rate(self) -> float:
        """Surrenders per deal declared."""
        return self.surrendered / self.declared if self.declared else 0.0

    @property
    def whist_rate(self) -> float:
        """Whist answers per whist-or-pass decision."""
        return self.whisted / self.whist_asked if self.whist_asked else 0.0

    @property
    def decisions(self) -> int:
        """Decisions taken."""
        return len(self.times)

    @property
    def mean_decision_ms(self) -> float:
        """Mean time per decision."""
        return 1000 * statistics.fmean(self.times) if self.times else 0.0

    @property
    def median_decision_ms(self) -> float:
        """Median time per decision."""
        return 1000 * statistics.median(self.times) if self.times else 0.0

    @property
    def p99_decision_ms(self) -> float:
        """The 99th percentile of the time per decision (nearest rank)."""
        return 1000 * percentile(self.times, 0.99) if self.times else 0.0


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 < q ≤ 1) of the values.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.99), percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5)
    (5.0, 3.0)
    """
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def summarize(rows_by_deal: Sequence[Sequence[DealResultRow]], a: str, b: str) -> dict[str, BotSummary]:
    """Aggregate the rows of each deal into one summary per bot."""
    out = {a: BotSummary(a), b: BotSummary(b)}
    for rows in rows_by_deal:
        total = {a: 0.0, b: 0.0}
        seats = {a: 0, b: 0}
        for row in rows:
            for seat, name in enumerate(row.arrangement):
                total[name] += row.scores[seat]
                seats[name] += 1
                out[name].times.extend(row.decision_times[seat])
            if row.declarer is not None:
                who = out[row.arrangement[row.declarer]]
                who.declared += 1
                if row.outcome == Outcome.SURRENDER:
                    who.surrendered += 1
                    who.contracts[str(Outcome.SURRENDER)] += 1
                else:
                    who.contracts[row.contract or "?"] += 1
                    if row.outcome == Outcome.UNCONTESTED or row.tricks[row.declarer] >= 6:
                        who.made += 1
            for seat, said in row.whist_answers:
                who = out[row.arrangement[seat]]
                who.whist_asked += 1
                who.whisted += said
        for name in (a, b):
            if seats[name]:
                out[name].per_deal.append(total[name] / seats[name])
    return out
