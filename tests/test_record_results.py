"""The record reader rejects altered results, totals and winners, deals after the end of
the game and false redeal markers, naming the deal index and the rule."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from paston.match import Match
from record_helpers import (
    Change,
    RuleCheck,
    Tamper,
    any_rule,
    check_tampering,
    expect_error,
    expect_error_in_deal,
    good,
)

# A changed result: (key, the new value computed from the result).
RESULT_CHANGES: list[tuple[str, str, Callable[[dict[str, Any]], object]]] = [
    ("scores+1", "scores", lambda r: [r["scores"][0] + 1, *r["scores"][1:]]),
    ("scores-swapped", "scores", lambda r: [r["scores"][1], r["scores"][0], r["scores"][2]]),
    ("declarer", "declarer", lambda r: (r["declarer"] + 1) % 3),
    ("outcome", "outcome", lambda r: "uncontested" if r["outcome"] != "uncontested" else "played"),
    ("contract", "contract", lambda r: "clubs" if r["contract"] != "clubs" else "diamonds"),
    ("defenders", "defenders", lambda r: [] if r["defenders"] else [(r["declarer"] + 1) % 3]),
    (
        "tricks",
        "tricks",
        lambda r: [1, 0, 0] if r["tricks"] == [0, 0, 0] else [r["tricks"][1], r["tricks"][0], r["tricks"][2]],
    ),
]


@pytest.mark.parametrize(
    ("key", "new"),
    [
        *(pytest.param(key, new, id=f"result-{name}") for name, key, new in RESULT_CHANGES),
        pytest.param(None, None, id="missing-result"),
    ],
)
def test_result_altered(key: str | None, new: Callable[[dict[str, Any]], object] | None) -> None:
    """The result of every finished deal, changed in the same way (where that changes it),
    or left out."""
    n = 0
    for i, entry in enumerate(good()["deals"]):
        if "result" not in entry:
            continue
        obj = good()
        if key is None or new is None:
            del obj["deals"][i]["result"]
            expect_error_in_deal(obj, i)
        else:
            value = new(entry["result"])
            if value == entry["result"][key]:
                continue
            obj["deals"][i]["result"][key] = value
            expect_error(obj, i, None, lambda x: x is not None and x.startswith("R7"))
        n += 1
    assert n > 0


@pytest.mark.parametrize("change", ["totals+10", "missing-totals"])
def test_totals_altered(change: str) -> None:
    n = 0
    for i, entry in enumerate(good()["deals"]):
        if "totals" not in entry:
            continue
        obj = good()
        if change == "totals+10":
            obj["deals"][i]["totals"][2] += 10
            expect_error(obj, i, None, {"R8.1", "R8.2"})
        else:
            del obj["deals"][i]["totals"]
            expect_error_in_deal(obj, i)
        n += 1
    assert n > 0


@pytest.mark.parametrize(
    ("which", "winners"),
    [
        pytest.param("finished", lambda m: [], id="none"),
        pytest.param("finished", lambda m: [s for s in range(3) if s not in m.winners][:1], id="a-loser"),
        pytest.param("finished", lambda m: [0, 1, 2], id="all-three"),
        pytest.param("redeal", lambda m: [0], id="winner-of-an-unfinished-game"),
    ],
)
def test_winners_wrong(which: str, winners: Callable[[Match], list[int]]) -> None:
    t = Tamper(which)
    wrong = winners(t.match)
    assert wrong != t.obj["winners"]
    t.put_top("winners", value=wrong)
    expect_error(t.obj, None, None, "R8.3")


def test_deal_after_the_end() -> None:
    good_obj = good()
    n = len(good_obj["deals"])
    extra = copy.deepcopy(good_obj["deals"][-1])
    extra["dealer"] = (extra["dealer"] + 1) % 3
    good_obj["deals"].append(extra)
    expect_error(good_obj, n, None, "R8.3")


REDEAL_ENTRY_CHANGES: list[tuple[str, Change]] = [
    ("with-actions", lambda t: t.put("actions", value=[{"seat": 0, "type": "pass"}])),
    ("with-first_bidder", lambda t: t.put("first_bidder", value=0)),
    ("redeal-null", lambda t: t.put("redeal", value=None)),
    ("with-totals", lambda t: t.put("totals", value=[0, 0, 0])),
]


@pytest.mark.parametrize(
    ("deal", "change", "rule"),
    [
        # a spade-sequence or jack-seven-prikup entry with actions / a first bidder / a result
        *(
            pytest.param(deal, change, rule, id=f"{reason}-{name}")
            for deal, rule, reason in ((0, "R1.5", "jack-seven-prikup"), (1, "R1.4", "spade-sequence"))
            for name, change in REDEAL_ENTRY_CHANGES
        ),
        pytest.param(
            0,
            lambda t: t.put("redeal", value="spade-sequence"),
            {"R1.4", "R1.5"},
            id="jack-seven-prikup-as-spade-sequence",
        ),
        # no-jack-no-seven: the passes are kept; no result
        pytest.param(3, lambda t: t.put("redeal", value=None), "R3.4", id="no-jack-no-seven-redeal-null"),
        pytest.param(
            3,
            lambda t: t.put("result", value=copy.deepcopy(t.obj["deals"][2]["result"])),
            "R3.4",
            id="no-jack-no-seven-with-result",
        ),
        pytest.param(
            3,
            lambda t: t.insert(len(t.acts), {"seat": 0, "type": "pass"}),
            "R3.4",
            id="no-jack-no-seven-fourth-pass",
        ),
        # a redeal reason claimed for a deal that is not redealt
        pytest.param(
            2, lambda t: t.put("redeal", value="spade-sequence"), {"R1.4"}, id="played-deal-as-spade-sequence"
        ),
        pytest.param(
            2,
            lambda t: t.put("redeal", value="no-jack-no-seven"),
            {"R3.4"},
            id="played-deal-as-no-jack-no-seven",
        ),
        pytest.param(2, lambda t: t.put("redeal", value="misdeal"), any_rule, id="unknown-redeal-reason"),
    ],
)
def test_redeal_markers_checked(deal: int, change: Change, rule: RuleCheck) -> None:
    check_tampering(change, rule, which="redeal", deal=deal)
