"""``paston check`` and ``paston replay`` as a new user runs them."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import assert_fails, assert_ok, flat, invoke
from paston.actions import Action
from paston.bots import RandomPlayer
from paston.cards import Card
from paston.match import Match
from paston.record import dumps, iter_states, read_file

SUITS = "♠♣♦♥"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three complete simulated games (JSON Lines)."""
    path = tmp_path_factory.mktemp("records") / "games.jsonl"
    assert_ok(invoke("simulate", "--games", 3, "--seed", 11, "--out", path, "--quiet"))
    return path


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def write_lines(path: Path, records: list[Any]) -> Path:
    path.write_text(
        "".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in records),
        encoding="utf-8",
    )
    return path


def played_deal(record: dict[str, Any]) -> int:
    """Index of the first deal of a record that was played out trick by trick."""
    for i, deal in enumerate(record["deals"]):
        if deal.get("result", {}).get("outcome") == "played":
            return i
    raise AssertionError("no played deal in this record")


def first_illegal_held_card(match: Match) -> tuple[int, int, int, list[Card]]:
    """(deal, action index, seat, held cards it may not play) at the first such play."""
    for d, k, state in iter_states(match):
        if state.phase.name == "PLAY":
            seat = state.to_move
            legal = state.legal_actions()
            illegal = [c for c in state.view(seat).hand if Action.play(c) not in legal]
            if illegal:
                return d, k, seat, illegal
    raise AssertionError("no play where a held card was illegal")


# --- check: valid files -----------------------------------------------------------------
def test_check_valid_file(games: Path) -> None:
    result = invoke("check", games)
    assert_ok(result)
    assert f"{games}: OK (3 games)" in flat(result.output)


def test_check_quiet_prints_nothing_for_valid_files(games: Path) -> None:
    result = invoke("check", "--quiet", games)
    assert_ok(result)
    assert result.output == ""


def test_check_pretty_printed_single_record(games: Path, tmp_path: Path) -> None:
    pretty = tmp_path / "one.json"
    pretty.write_text(
        json.dumps(json.loads(lines_of(games)[0]), indent=2, ensure_ascii=False), encoding="utf-8"
    )
    result = invoke("check", pretty)
    assert_ok(result)
    assert "OK (1 game)" in result.output


def test_check_skips_blank_lines_between_records(games: Path, tmp_path: Path) -> None:
    path = tmp_path / "spaced.jsonl"
    path.write_text("\n\n".join(lines_of(games)) + "\n\n", encoding="utf-8")
    result = invoke("check", path)
    assert_ok(result)
    assert "OK (3 games)" in result.output


def test_check_several_files_at_once(games: Path, tmp_path: Path) -> None:
    single = write_lines(tmp_path / "single.jsonl", [lines_of(games)[1]])
    result = invoke("check", games, single)
    assert_ok(result)
    text = flat(result.output)
    assert f"{games}: OK (3 games)" in text
    assert f"{single}: OK (1 game)" in text


def test_check_several_files_one_bad(games: Path, tmp_path: Path) -> None:
    record = json.loads(lines_of(games)[0])
    record["winners"] = [w for w in range(3) if w not in record["winners"]][:1]
    bad = write_lines(tmp_path / "bad.jsonl", [record])
    result = invoke("check", games, bad)
    text = assert_fails(result, code=1)
    assert f"{games}: OK (3 games)" in text
    assert f"{bad}: game 0: R8.3" in text
    assert f"{bad}: INVALID (1 bad, 0 valid)" in text
    # the order of the files does not matter
    assert invoke("check", bad, games).exit_code == 1


# --- check: tampered files --------------------------------------------------------------
def test_check_tampered_card_not_held(games: Path, tmp_path: Path) -> None:
    lines = lines_of(games)
    record = json.loads(lines[2])
    d = played_deal(record)
    deal = record["deals"][d]
    k = next(i for i, a in enumerate(deal["actions"]) if a["type"] == "play")
    seat = deal["actions"][k]["seat"]
    stranger = next(c for c in deal["hands"][(seat + 1) % 3] if c not in deal["prikup"])
    deal["actions"][k]["card"] = stranger
    bad = write_lines(tmp_path / "card.jsonl", [*lines[:2], record])
    text = assert_fails(invoke("check", bad), code=1)
    assert f"game 2, deal {d}, action {k}: R6.2: seat {seat} does not hold {stranger}" in text
    assert "INVALID (1 bad, 2 valid)" in text


def test_check_tampered_card_breaks_follow_suit(games: Path, tmp_path: Path) -> None:
    lines = lines_of(games)
    d, k, seat, illegal = first_illegal_held_card(read_file(games)[1])
    record = json.loads(lines[1])
    record["deals"][d]["actions"][k]["card"] = str(illegal[0])
    bad = write_lines(tmp_path / "follow.jsonl", [lines[0], record, lines[2]])
    text = assert_fails(invoke("check", bad), code=1)
    assert f"game 1, deal {d}, action {k}: R6.2: seat {seat} must" in text
    assert "must follow" in text or "must play a trump" in text


def test_check_tampered_score(games: Path, tmp_path: Path) -> None:
    record = json.loads(lines_of(games)[0])
    d = played_deal(record)
    record["deals"][d]["result"]["scores"][0] += 10
    bad = write_lines(tmp_path / "score.jsonl", [record])
    assert_fails(invoke("check", bad), f"game 0, deal {d}: R7: result must be", code=1)


def test_check_tampered_tricks(games: Path, tmp_path: Path) -> None:
    record = json.loads(lines_of(games)[0])
    d = played_deal(record)
    tricks = record["deals"][d]["result"]["tricks"]
    declarer = record["deals"][d]["result"]["declarer"]
    defender = record["deals"][d]["result"]["defenders"][0]
    if tricks[defender] == 0:
        tricks[declarer] -= 1
        tricks[defender] += 1
    else:
        tricks[declarer] += 1
        tricks[defender] -= 1
    bad = write_lines(tmp_path / "tricks.jsonl", [record])
    assert_fails(invoke("check", bad), f"game 0, deal {d}: R7", code=1)


def test_check_tampered_totals(games: Path, tmp_path: Path) -> None:
    record = json.loads(lines_of(games)[0])
    d = next(i for i, deal in enumerate(record["deals"]) if "totals" in deal)
    record["deals"][d]["totals"] = [t + 1 for t in record["deals"][d]["totals"]]
    bad = write_lines(tmp_path / "totals.jsonl", [record])
    assert_fails(invoke("check", bad), f"game 0, deal {d}: R8.2: totals must be", code=1)


def test_check_tampered_winners(games: Path, tmp_path: Path) -> None:
    lines = lines_of(games)
    record = json.loads(lines[1])
    true_winners = list(record["winners"])
    record["winners"] = [s for s in range(3) if s not in true_winners][:1]
    bad = write_lines(tmp_path / "winners.jsonl", [lines[0], record])
    text = assert_fails(invoke("check", bad), code=1)
    assert f"game 1: R8.3: winners are {true_winners} by the totals" in text
    assert "INVALID (1 bad, 1 valid)" in text


def test_check_tampered_hand(games: Path, tmp_path: Path) -> None:
    record = json.loads(lines_of(games)[0])
    hands = record["deals"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    bad = write_lines(tmp_path / "hand.jsonl", [record])
    assert_fails(invoke("check", bad), "game 0, deal 0: R1.3", code=1)


def test_check_tampered_dealer(games: Path, tmp_path: Path) -> None:
    record = json.loads(lines_of(games)[0])
    record["deals"][1]["dealer"] = (record["deals"][1]["dealer"] + 1) % 3
    bad = write_lines(tmp_path / "dealer.jsonl", [record])
    assert_fails(invoke("check", bad), "game 0, deal 1: R", "the dealer must be seat", code=1)


def test_check_wrong_format(games: Path, tmp_path: Path) -> None:
    record = json.loads(lines_of(games)[0])
    record["format"] = "paston/0"
    bad = write_lines(tmp_path / "format.jsonl", [record])
    assert_fails(invoke("check", bad), 'game 0: format must be "paston/1", not "paston/0"', code=1)


def test_check_malformed_json_line(games: Path, tmp_path: Path) -> None:
    lines = lines_of(games)
    bad = write_lines(tmp_path / "broken.jsonl", [lines[0], lines[1][:-7], lines[2]])
    text = assert_fails(invoke("check", bad), "game 1: not valid JSON", code=1)
    assert "INVALID (1 bad, 2 valid)" in text


@pytest.mark.parametrize("digits", [4301, 100_000])
def test_check_a_number_too_long_to_read_is_one_error_not_a_crash(
    games: Path, tmp_path: Path, digits: int
) -> None:
    """Python refuses to read an integer of more than 4,300 digits: ``check``, ``verify``
    and ``replay`` say so for that game and go on with the others (once a traceback)."""
    lines = lines_of(games)
    huge = json.loads(lines[1])
    huge["first_dealer"] = "<N>"
    bad = write_lines(tmp_path / "huge.jsonl", [lines[0], json.dumps(huge).replace('"<N>"', "9" * digits)])
    said = "game 1: not valid JSON for a record: a number has more than"
    text = assert_fails(invoke("check", bad), said, code=1)
    assert "INVALID (1 bad, 1 valid)" in text
    assert_fails(invoke("verify", bad), "line 2 is not JSON")
    assert_fails(invoke("replay", bad, "--game", 1), "not valid JSON for a record")


def test_check_not_an_object(tmp_path: Path) -> None:
    bad = write_lines(tmp_path / "list.jsonl", ["[1, 2, 3]", '"text"'])
    text = assert_fails(invoke("check", bad), "game 0: a record must be a JSON object", code=1)
    assert "game 1: a record must be a JSON object" in text


@pytest.mark.parametrize("content", ["", "\n", "   \n\n \t\n"])
def test_check_empty_file(tmp_path: Path, content: str) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text(content, encoding="utf-8")
    assert_fails(invoke("check", empty), "no game record", "INVALID", code=1)


def test_check_not_utf8(tmp_path: Path) -> None:
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00\x81 not text")
    assert_fails(invoke("check", binary), "cannot read the file", code=1)


def test_check_nonexistent_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a short path: the error panel wraps a long one mid-word
    assert_fails(invoke("check", "missing.jsonl"), "missing.jsonl", "does not exist", code=2)


def test_check_directory(tmp_path: Path) -> None:
    assert_fails(invoke("check", tmp_path), "directory", code=2)


def test_check_without_files() -> None:
    assert_fails(invoke("check"), "missing argument", code=2)


def test_check_quiet_still_prints_problems(games: Path, tmp_path: Path) -> None:
    bad = write_lines(tmp_path / "b.jsonl", [lines_of(games)[0][:-3]])
    result = invoke("check", "-q", games, bad)
    text = assert_fails(result, "not valid JSON", code=1)
    assert "OK" not in text


def test_check_truncated_pretty_printed_record_is_one_bad_record(games: Path, tmp_path: Path) -> None:
    """A pretty-printed record cut short (a crash while saving) is one broken record,
    not hundreds of broken 'games' — one per line of the file."""
    pretty = json.dumps(json.loads(lines_of(games)[0]), indent=2, ensure_ascii=False)
    cut = tmp_path / "cut.json"
    cut.write_text(pretty[: len(pretty) // 2], encoding="utf-8")
    result = invoke("check", cut)
    assert_fails(result, "not valid JSON", code=1)
    problems = [line for line in result.output.splitlines() if ": game " in line]
    assert len(problems) <= 3, f"{len(problems)} errors reported for one truncated record: {problems[:3]}"


# --- replay -----------------------------------------------------------------------------
def test_replay_shows_every_deal_trick_score_total_and_winner(games: Path) -> None:
    result = invoke("replay", games, "--game", 1)
    assert_ok(result)
    out = result.output
    match = read_file(games)[1]
    record = json.loads(lines_of(games)[1])
    for suit in SUITS:
        assert suit in out
    assert re.search(r"10[♠♣♦♥]", out), "played cards are shown with suit symbols"
    assert not re.search(r"\bT[SCDH♠♣♦♥]", out), "tens are shown as 10, not T"
    headers = re.findall(r"^Deal \d+ — dealer ", out, flags=re.M)
    assert len(headers) == len(record["deals"])
    assert len(re.findall(r"^ {2}Auction: ", out, flags=re.M)) >= 1
    played = [d for d in record["deals"] if d.get("result", {}).get("outcome") == "played"]
    trick_lines = re.findall(r"^ {4} ?\d+\. .* → ", out, flags=re.M)
    assert len(trick_lines) == 10 * len(played)
    results = [d for d in record["deals"] if "result" in d]
    assert out.count("  Scores: ") == len(results)
    assert out.count("  Totals: ") == len(results)
    names = ("random 0", "random 1", "random 2")
    for d in results:
        totals = ", ".join(f"{names[s]} {d['totals'][s]}" for s in range(3))
        assert totals in out
    winners = " and ".join(names[s] for s in match.winners)
    assert (
        f"{winners} {'wins' if len(match.winners) == 1 else 'share the victory'} with {max(match.totals)}"
        in out
    )
    assert "Rules: lone_defender=graded" in out


def test_replay_defaults_to_the_first_game(games: Path) -> None:
    first = invoke("replay", games)
    assert_ok(first)
    assert first.output == invoke("replay", games, "--game", 0).output
    assert first.output != invoke("replay", games, "--game", 2).output


def test_replay_game_out_of_range(games: Path) -> None:
    assert_fails(invoke("replay", games, "--game", 3), "holds 3 games", "--game", code=2)
    assert_fails(invoke("replay", games, "--game", 99), "holds 3 games", code=2)


def test_replay_negative_game(games: Path) -> None:
    assert_fails(invoke("replay", games, "--game", -1), "--game", code=2)


def test_replay_invalid_game_names_the_rule(games: Path, tmp_path: Path) -> None:
    lines = lines_of(games)
    record = json.loads(lines[1])
    record["winners"] = [s for s in range(3) if s not in record["winners"]][:1]
    bad = write_lines(tmp_path / "bad.jsonl", [lines[0], record])
    assert_fails(invoke("replay", bad, "--game", 1), "game 1: R8.3", code=1)
    assert_ok(invoke("replay", bad, "--game", 0))


def test_replay_nonexistent_file(tmp_path: Path) -> None:
    assert_fails(invoke("replay", tmp_path / "nope.jsonl"), "does not exist", code=2)


def test_replay_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    assert_fails(invoke("replay", empty), "no game record")


def test_replay_unfinished_game(tmp_path: Path) -> None:
    match = Match(first_dealer=0, rng=random.Random(5), seats=("Ana", "Bo", "Cy"))
    bot = RandomPlayer(seed=5)
    while True:
        deal = match.deals[-1]
        if deal.phase.name == "PLAY" and len(deal.completed_tricks) >= 2 and deal.current_trick:
            break
        seat = match.to_move
        match.apply(bot.choose(match.view(seat)), seat)
    assert not match.is_over
    path = tmp_path / "unfinished.json"
    path.write_text(dumps(match, indent=2), encoding="utf-8")
    assert_ok(invoke("check", path))
    result = invoke("replay", path)
    assert_ok(result)
    out = result.output
    assert "Ana (seat 0), Bo (seat 1), Cy (seat 2)" in out
    assert "(unfinished)" in out
    assert "(deal unfinished)" in out
    assert out.rstrip().endswith("The game is unfinished.")
    assert " 1. " in out and " 2. " in out


def test_replay_pretty_printed_record(games: Path, tmp_path: Path) -> None:
    pretty = tmp_path / "one.json"
    pretty.write_text(
        json.dumps(json.loads(lines_of(games)[2]), indent=2, ensure_ascii=False), encoding="utf-8"
    )
    assert invoke("replay", pretty).output == invoke("replay", games, "--game", 2).output


# --- check: places in the file and JSON's words -------------------------------------------------
def test_check_names_the_file_line_of_a_broken_json_line(games: Path, tmp_path: Path) -> None:
    lines = lines_of(games)
    bad = tmp_path / "broken.jsonl"
    # blank lines between the games: game 1 is on line 3 of the file
    bad.write_text(lines[0] + "\n\n" + '{"format": "paston/1", bad\n' + lines[2] + "\n", encoding="utf-8")
    text = assert_fails(invoke("check", bad), code=1)
    assert "game 1: not valid JSON: Expecting property name" in text
    assert "double quotes: line 3 column 24 of the file" in text
    assert "line 1 column" not in text


def test_check_names_the_file_line_in_a_pretty_printed_record(tmp_path: Path) -> None:
    bad = tmp_path / "pretty.json"
    bad.write_text('\n\n{\n  "format": "paston/1",\n  nul\n}\n', encoding="utf-8")
    result = invoke("check", bad)
    assert_fails(result, "game 0: not valid JSON: Expecting", "line 5 column 3 of the file", code=1)


def test_check_says_null_not_nonetype(tmp_path: Path) -> None:
    bad = write_lines(tmp_path / "null.jsonl", ["null", "[1]", '"x"'])
    text = assert_fails(invoke("check", bad), code=1)
    assert "game 0: a record must be a JSON object, not null (line 1 of the file)" in text
    assert "game 1: a record must be a JSON object, not an array (line 2 of the file)" in text
    assert "game 2: a record must be a JSON object, not a string (line 3 of the file)" in text
    assert "NoneType" not in text and "not list" not in text


def test_check_says_null_for_a_null_value(games: Path, tmp_path: Path) -> None:
    record = json.loads(lines_of(games)[0])
    record["first_dealer"] = None
    bad = write_lines(tmp_path / "dealer.jsonl", [record])
    assert_fails(invoke("check", bad), "game 0: R1.1: first_dealer must be 0, 1 or 2, not null", code=1)
