"""The record reader rejects malformed records (not JSON, missing or extra keys, wrong
types, unknown actions, bad card codes and contract names, floats for integers), naming
where; a valid record reads back exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from paston import record
from paston.errors import RecordError
from record_helpers import (
    TOP_KEYS,
    Change,
    RuleCheck,
    Tamper,
    _good_text,
    any_rule,
    check_tampering,
    expect_error,
    good,
)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("{not json", id="not-json"),
        pytest.param("", id="empty"),
        pytest.param("[1, 2]", id="array"),
        pytest.param('"paston/1"', id="string"),
        pytest.param("null", id="null"),
    ],
)
def test_not_json_and_not_an_object(text: str) -> None:
    with pytest.raises(RecordError) as info:
        record.loads(text)
    assert info.value.deal is None and info.value.action is None


def _drop_top(key: str) -> Change:
    def change(t: Tamper) -> None:
        del t.obj[key]

    return change


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        *(pytest.param(_drop_top(key), any_rule, id=f"missing-key-{key}") for key in TOP_KEYS),
        pytest.param(lambda t: t.put_top("extra", value=1), any_rule, id="extra-key"),
        pytest.param(lambda t: t.put_top("format", value="paston/2"), any_rule, id="format-paston/2"),
        pytest.param(
            lambda t: t.put_top("rules", "lone_defender", value="steep"), any_rule, id="rule-value-unknown"
        ),
        pytest.param(
            lambda t: t.put_top("rules", "no_trump", value=True), any_rule, id="rule-switch-unknown"
        ),
        pytest.param(lambda t: t.put_top("seats", value=["a", "b"]), "R0.1", id="two-seats"),
        pytest.param(lambda t: t.put_top("first_dealer", value=3), "R1.1", id="first_dealer-3"),
    ],
)
def test_top_level_breakage(change: Change, rule: RuleCheck) -> None:
    t = Tamper()
    change(t)
    expect_error(t.obj, None, None, rule)


@pytest.mark.parametrize(
    "action",
    [pytest.param(0, id="action-0"), pytest.param(5, id="action-5"), pytest.param(-1, id="last-action")],
)
def test_unknown_action_type(action: int) -> None:
    t = Tamper()
    k = action % len(t.acts)
    t.put("actions", k, "type", value="redouble")
    err = expect_error(t.obj, t.i, k, any_rule)
    assert "redouble" in str(err)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda t: t.put("actions", t.first("play"), "card", value="ZZ"), id="play-ZZ"),
        pytest.param(lambda t: t.put("actions", t.first("discard"), "cards", 1, value="ZZ"), id="discard-ZZ"),
        pytest.param(lambda t: t.put("deck", 3, value="ZZ"), id="deck-ZZ"),
        pytest.param(lambda t: t.put("hands", 1, 3, value="ZZ"), id="hand-ZZ"),
        pytest.param(lambda t: t.put("prikup", 0, value="ZZ"), id="prikup-ZZ"),
    ],
)
def test_bad_card_codes(change: Change) -> None:
    """R0.2: records use codes like TH; 'ZZ' is rejected, naming the deal, the action and R0.2."""
    check_tampering(change, "R0.2")


def _played_card(t: Tamper) -> str:
    return str(t.acts[t.first("play")]["card"])


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda t: t.put("actions", t.first("play"), "card", value="ZZ"), id="play-ZZ"),
        # '10H' is accepted only by readers of text, not in records
        pytest.param(
            lambda t: t.put("actions", t.first("play"), "card", value="10" + _played_card(t)[1]),
            id="play-10-for-T",
        ),
        pytest.param(
            lambda t: t.put("actions", t.first("play"), "card", value=_played_card(t).lower()),
            id="play-lower-case",
        ),
        pytest.param(lambda t: t.put("actions", t.first("play"), "card", value=5), id="play-a-number"),
        pytest.param(lambda t: t.put("actions", t.first("play"), "card", value=None), id="play-null"),
        pytest.param(lambda t: t.put("deck", 3, value="ZZ"), id="deck-ZZ"),
    ],
)
def test_bad_card_codes_are_rejected(change: Change) -> None:
    """The same, without asking for the rule: the location must be right."""
    check_tampering(change, any_rule)


@pytest.mark.parametrize("bad", ["no-trump", "gupa", "Hearts", 3])
def test_bad_contract_names(bad: object) -> None:
    check_tampering(
        lambda t: t.put("actions", t.first("trump"), "value", value=bad),
        lambda r: r in (None, "R3.1", "R4.2"),
    )


def _drop_deal_key(key: str) -> Change:
    return lambda t: t.drop(key)


def _drop_action_key(kind: str | None, k: int, key: str) -> Change:
    """Drop ``key`` from the first action of ``kind`` (or from action ``k``)."""
    return lambda t: t.drop("actions", k if kind is None else t.first(kind), key)


@pytest.mark.parametrize(
    "change",
    [
        *(
            pytest.param(_drop_deal_key(key), id=f"missing-key-{key}")
            for key in ("dealer", "deck", "hands", "prikup", "redeal", "actions")
        ),
        pytest.param(lambda t: t.put("comment", value="hi"), id="extra-key-comment"),
        pytest.param(_drop_action_key("play", 0, "card"), id="play-without-card"),
        pytest.param(_drop_action_key("discard", 0, "cards"), id="discard-without-cards"),
        pytest.param(_drop_action_key("trump", 0, "value"), id="trump-without-value"),
        pytest.param(_drop_action_key(None, 0, "seat"), id="action-0-without-seat"),
        pytest.param(_drop_action_key(None, 1, "type"), id="action-1-without-type"),
        pytest.param(
            lambda t: t.put("actions", t.first("whist", "pass"), "card", value="AS"),
            id="whist-or-pass-with-a-card",
        ),
        pytest.param(lambda t: t.put("actions", 0, value="pass"), id="action-as-a-string"),
        pytest.param(lambda t: t.put_top("deals", t.i, value=[]), id="deal-as-a-list"),
    ],
)
def test_missing_and_extra_keys(change: Change) -> None:
    check_tampering(change, any_rule)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        pytest.param(("deals", 0, "dealer"), "0", id="dealer-a-string"),
        pytest.param(("deals", 0, "deck"), "QD 7H", id="deck-a-string"),
        pytest.param(("deals", 0, "hands"), {}, id="hands-an-object"),
        pytest.param(("deals", 0, "actions"), {}, id="actions-an-object"),
        pytest.param(("deals",), {}, id="deals-an-object"),
        pytest.param(("seats",), "a b c", id="seats-a-string"),
    ],
)
def test_wrong_types(path: tuple[str | int, ...], value: object) -> None:
    t = Tamper()
    t.put_top(*path, value=value)
    with pytest.raises(RecordError) as info:
        record.from_record(t.obj)
    if path[0] == "deals" and len(path) > 2:
        assert info.value.deal == path[1]


@pytest.mark.parametrize("which", ["finished", "redeal"])
def test_tampered_record_round_trip_still_exact(which: str) -> None:
    """The untouched record is accepted (the tampering tests start from a valid record)."""
    assert record.dumps(record.from_record(good(which))) == _good_text(which)


def _float_in_deal_0(*path: str) -> Change:
    def change(t: Tamper) -> None:
        value = t.get(*path)
        t.put(*path, value=[float(x) for x in value] if isinstance(value, list) else float(value))

    return change


def _winners_as_floats(t: Tamper) -> None:
    t.put_top("winners", value=[float(s) for s in t.obj["winners"]])


@pytest.mark.parametrize(
    ("change", "deal"),
    [
        pytest.param(_float_in_deal_0("dealer"), 0, id="dealer-a-float"),
        pytest.param(_float_in_deal_0("first_bidder"), 0, id="first_bidder-a-float"),
        pytest.param(_float_in_deal_0("totals"), 0, id="totals-floats"),
        pytest.param(_float_in_deal_0("result", "scores"), 0, id="scores-floats"),
        pytest.param(_winners_as_floats, None, id="winners-floats"),
    ],
)
def test_numbers_must_be_integers(change: Change, deal: int | None) -> None:
    """Seats, dealers, scores and totals are integers in RECORD.md. The reader is strict
    about ``first_dealer`` and an action's ``seat`` (``true`` is rejected there), so the
    other numbers must not pass as ``true`` or ``1.0`` either: such a record would not
    read back to the same text."""
    t = Tamper(deal=0)
    change(t)
    with pytest.raises(RecordError) as info:
        record.from_record(t.obj)
    assert info.value.deal == deal


def test_record_messages_name_json_values_as_json(tmp_path: Path) -> None:
    """A bad value in a record is quoted as JSON writes it: null, not None; "0", not '0'."""
    obj = good()
    obj["first_dealer"] = None
    with pytest.raises(RecordError) as info:
        record.from_record(obj)
    assert "not null" in str(info.value) and "None" not in str(info.value)
    with pytest.raises(RecordError) as info:
        record.from_record([1, 2])
    assert "must be a JSON object, not an array" in str(info.value)
