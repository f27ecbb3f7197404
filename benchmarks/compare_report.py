"""The report of ``compare.py``: medians, spreads and ratios of each figure over the rounds,
as a text table and as JSON.

>>> from compare_figures import Figure
>>> f = Figure("x", "engine deals/s", "deals/s", True, "median:", "([0-9]+)")
>>> row = Row(f, Series([100.0, 110.0, 105.0]), Series([120.0, 125.0, 130.0]))
>>> row.ratio, row.verdict
(1.1904761904761905, 'better')
>>> print(render_table([row]))  # doctest: +NORMALIZE_WHITESPACE
figure          better  A median  B median  B/A    A min–max  B min–max  beyond spread
engine deals/s  higher  105       125       1.190  100–110    120–130    B better
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from compare_figures import Figure

#: Values each side needs before a ratio is marked. For the same code the two ranges part
#: by chance one time in three with 2 values each, one in ten with 3, one in 35 with 4.
MARK_ROUNDS = 3


@dataclass
class Series:
    """One figure's values for one revision, a round each (``None``: missing, see ``reasons``)."""

    values: list[float | None] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)

    def add(self, value: float | None, reason: str = "") -> None:
        self.values.append(value)
        self.reasons.append(reason)

    @property
    def present(self) -> list[float]:
        return [v for v in self.values if v is not None]

    @property
    def median(self) -> float | None:
        return statistics.median(self.present) if self.present else None

    @property
    def spread(self) -> tuple[float, float] | None:
        """(min, max) over the rounds, or None when there is no value."""
        return (min(self.present), max(self.present)) if self.present else None

    @property
    def reason(self) -> str:
        """Why values are missing (the first reason given), or ``''``."""
        missing = [r for v, r in zip(self.values, self.reasons, strict=False) if v is None]
        if not missing:
            return ""
        first = next((r for r in missing if r), "no value")
        return first if len(missing) == len(self.values) else f"{len(missing)} round(s) missing: {first}"


@dataclass
class Row:
    """One figure for both revisions."""

    figure: Figure
    a: Series
    b: Series

    @property
    def ratio(self) -> float | None:
        """B's median over A's, or None when either is missing or A's is 0."""
        a, b = self.a.median, self.b.median
        return b / a if a and b is not None else None

    @property
    def verdict(self) -> str:
        """``'better'`` or ``'worse'`` when B's range over the rounds lies wholly beyond A's
        in that direction (each with :data:`MARK_ROUNDS` values or more), else ``''``."""
        if min(len(self.a.present), len(self.b.present)) < MARK_ROUNDS:
            return ""
        (a_low, a_high), (b_low, b_high) = self.a.spread or (0, 0), self.b.spread or (0, 0)
        if b_low > a_high:
            return "better" if self.figure.higher_is_better else "worse"
        if b_high < a_low:
            return "worse" if self.figure.higher_is_better else "better"
        return ""


def number(x: float | None) -> str:
    """A figure's value with as many digits as it merits.

    >>> [number(x) for x in (12630.4, 345.6, 24.199, 4.0, 0.898, 0.0854, 0.0, None)]
    ['12,630', '346', '24.2', '4.00', '0.898', '0.0854', '0', '—']
    """
    if x is None:
        return "—"
    size = abs(x)
    if size >= 1000:
        return f"{x:,.0f}"
    if size >= 100:
        return f"{x:.0f}"
    if size >= 10:
        return f"{x:.1f}"
    return f"{x:#.3g}" if x else "0"


def span(series: Series) -> str:
    """``'min–max'`` over the rounds, or ``'—'``."""
    spread = series.spread
    return f"{number(spread[0])}–{number(spread[1])}" if spread else "—"


def cells(row: Row, notes: dict[str, int]) -> list[str]:
    """A row's cells; a missing value is ``—`` with the number of the note giving the
    reason (one note for each side's reason, however many figures it hides)."""
    out = [row.figure.label, row.figure.better]
    for side, series in (("A", row.a), ("B", row.b)):
        text = number(series.median)
        if series.reason:
            text += f" [{notes.setdefault(f'{side}: {series.reason}', len(notes) + 1)}]"
        out.append(text)
    ratio = row.ratio
    out += [f"{ratio:.3f}" if ratio is not None else "—", span(row.a), span(row.b)]
    out.append(f"B {row.verdict}" if row.verdict else "")
    return out


def render_table(rows: list[Row]) -> str:
    """The comparison table, and the notes on missing values below it."""
    header = ["figure", "better", "A median", "B median", "B/A", "A min–max", "B min–max", "beyond spread"]
    notes: dict[str, int] = {}
    body = [cells(row, notes) for row in rows]
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [header, *body]]
    lines += [f"[{i}] {note}" for note, i in notes.items()]
    return "\n".join(lines)


def render_header(meta: dict[str, Any]) -> str:
    """Who was compared, on what machine, under what load, how."""
    before, after = (" ".join(f"{x:.2f}" for x in meta[k]) for k in ("load_before", "load_after"))
    lines = [
        f"{side} = {rev['spec']}: {rev['title']}  [{rev['built']}: {rev.get('python', '?')}]"
        for side, rev in meta["revisions"].items()
    ]
    lines += [
        f"machine: {meta['cores']} cores, {meta['platform']}, Python {meta['python']}",
        f"load average before: {before}   after: {after}",
        f"{meta['rounds']} round(s), order {meta['order']}, {meta['settings']} settings, "
        f"scripts: {meta['scripts']}, {meta['seconds']:.0f} s",
    ]
    lines += [f"note: {note}" for note in meta.get("notes", [])]
    return "\n".join(lines)


def row_json(row: Row) -> dict[str, Any]:
    """Everything about one figure, per-round values included."""
    return {
        "key": row.figure.key,
        "label": row.figure.label,
        "unit": row.figure.unit,
        "better": row.figure.better,
        "A": {"values": row.a.values, "median": row.a.median, "spread": row.a.spread, "reason": row.a.reason},
        "B": {"values": row.b.values, "median": row.b.median, "spread": row.b.spread, "reason": row.b.reason},
        "ratio": row.ratio,
        "verdict": row.verdict,
    }
