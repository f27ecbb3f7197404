"""The record's optional ``undo`` field (docs/RECORD.md): written only when undo was
allowed, read back, checked by ``paston check``, and anything but true/false refused."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paston.cli import app
from paston.errors import RecordError
from paston.match import Match
from paston.record import dumps, loads, read_record, to_record


def game(undo: bool) -> Match:
    match = Match(first_dealer=0, rng=random.Random(2))
    for _ in range(5):
        match.apply(match.legal_actions()[0])
    match.undo_allowed = undo
    return match


def test_undo_is_written_only_when_allowed_and_read_back() -> None:
    assert "undo" not in to_record(game(False))
    record = to_record(game(True))
    assert record["undo"] is True
    again, _ = read_record(record)
    assert again.undo_allowed and to_record(again) == record
    assert not loads(dumps(game(False))).undo_allowed


@pytest.mark.parametrize("value", ["yes", 1, None, [True]])
def test_an_undo_that_is_not_true_or_false_is_refused(value: object) -> None:
    record = to_record(game(True))
    record["undo"] = value
    with pytest.raises(RecordError, match="undo must be true or false"):
        read_record(record)


def test_paston_check_accepts_a_record_with_undo(tmp_path: Path) -> None:
    path = tmp_path / "u.json"
    path.write_text(json.dumps(to_record(game(True))), encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
