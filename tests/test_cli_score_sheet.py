"""``paston score`` and ``paston sheet``: scoring deals played with real cards."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import Result

from cli_helpers import assert_fails, assert_ok, flat, invoke


def table_rows(output: str) -> list[list[str]]:
    """The body rows of a Rich table (cells split on the │ rule)."""
    rows = []
    for line in output.splitlines():
        if "│" in line:
            rows.append([cell.strip() for cell in line.split("│")])
    return rows


def deal_scores(output: str) -> dict[int, tuple[str, str, str, str]]:
    """``paston score`` table: seat → (player, role, tricks, score)."""
    out = {}
    for cells in table_rows(output):
        if len(cells) == 5 and cells[0].isdigit():
            out[int(cells[0])] = (cells[1], cells[2], cells[3], cells[4])
    assert sorted(out) == [0, 1, 2], output
    return out


def scores_of(output: str) -> tuple[str, str, str]:
    rows = deal_scores(output)
    return rows[0][3], rows[1][3], rows[2][3]


# --- score: the examples of docs/guide/score.md -----------------------------------------
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["hearts", "--declarer", "0", "--defenders", "1", "--tricks", "7,3,0"], ("+40", "-28", "0")),
        (["best-spades", "-d", "0", "-w", "1,2", "-t", "6,3,1"], ("+10", "+40", "-36")),
        (["clubs", "--declarer", "2", "--uncontested"], ("0", "0", "+20")),
        (["surrender", "--declarer", "1"], ("+2", "-10", "+2")),
        (["surrender", "--declarer", "1", "--rules", "no-surrender-bonus"], ("0", "-10", "0")),
        (["surrender", "--declarer", "1", "--rules", "surrender_bonus=0"], ("0", "-10", "0")),
        # R7.8: the same split in ordinary spades
        (["spades", "-d", "0", "-w", "1,2", "-t", "6,3,1"], ("+10", "+10", "-9")),
        # the ladder words are accepted too
        (["gupa", "-d", "0", "-w", "1", "-t", "7,3,0"], ("+40", "-28", "0")),
        (["paston grkha", "-d", "0", "-w", "1,2", "-t", "6,3,1"], ("+10", "+40", "-36")),
        # R7.3 flat variant
        (["hearts", "-d", "0", "-w", "1", "-t", "7,3,0", "--rules", "flat"], ("+40", "-36", "0")),
        # failed contract, R7.1; best spades failed, R7.5
        (["diamonds", "-d", "1", "-w", "0,2", "-t", "3,5,2"], ("+30", "-30", "0")),
        (["best-spades", "-d", "2", "-w", "0", "-t", "5,0,5"], ("+40", "0", "-40")),
        # uncontested best spades scores only +10 (R7.6)
        (["best-spades", "-d", "0", "--uncontested"], ("+10", "0", "0")),
    ],
)
def test_score_examples(args: list[str], expected: tuple[str, str, str]) -> None:
    result = invoke("score", *args)
    assert_ok(result)
    assert scores_of(result.output) == expected


def test_score_shows_roles_and_tricks() -> None:
    result = invoke("score", "hearts", "--declarer", "0", "--defenders", "1", "--tricks", "7,3,0")
    assert_ok(result)
    rows = deal_scores(result.output)
    assert rows[0][1:3] == ("declarer", "7")
    assert rows[1][1:3] == ("lone defender", "3")
    assert rows[2][1:3] == ("passed", "0")
    assert "gupa (♥)" in result.output


def test_score_with_names_and_declarer_by_name() -> None:
    result = invoke("score", "hearts", "-d", "bo", "-w", "Cy", "-t", "0,7,3", "--names", "Ana,Bo,Cy")
    assert_ok(result)
    rows = deal_scores(result.output)
    assert [rows[s][0] for s in range(3)] == ["Ana", "Bo", "Cy"]
    assert scores_of(result.output) == ("0", "+40", "-28")


def test_score_surrender_and_uncontested_have_no_tricks() -> None:
    for args in (["surrender", "-d", "2"], ["spades", "-d", "2", "-u"]):
        result = invoke("score", *args)
        assert_ok(result)
        assert {row[2] for row in deal_scores(result.output).values()} == {"—"}


# --- score: bad input ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["hearts", "-d", "0", "-w", "1", "-t", "7,3,1"], ["R6.3", "summing to 10", "[7, 3, 1]"]),
        (["hearts", "-d", "0", "-w", "1", "-t", "6,3,0"], ["R6.3", "summing to 10"]),
        (["hearts", "-d", "0", "-w", "1", "-t", "7,3"], ["R6.3", "three counts"]),
        (["hearts", "-d", "0", "-w", "1", "-t", "7,3,0,0"], ["R6.3", "three counts"]),
        (["hearts", "-d", "0", "-w", "1", "-t", "11,-1,0"], ["R6.3"]),
        (["hearts", "-d", "0", "-w", "1", "-t", "seven,3,0"], ["--tricks", "numbers"]),
        (["hearts", "-d", "0", "-w", "1", "-t", "7,2,1"], ["R5.2", "Seat 2 passed"]),
        (["hearts", "-d", "0", "-w", "0", "-t", "7,3,0"], ["R5.2", "other seats than the declarer"]),
        (["hearts", "-d", "0", "-w", "0,1", "-t", "7,3,0"], ["R5.2", "declarer"]),
        (["hearts", "-d", "0", "-w", "1,1", "-t", "7,3,0"], ["R5.2"]),
        (["notrump", "-d", "0", "-w", "1", "-t", "7,3,0"], ["cannot parse contract 'notrump'", "no-trump"]),
        (["hearts", "-d", "0", "-w", "1"], ["--tricks"]),
        (["hearts", "-d", "0", "-t", "7,3,0"], ["--defenders"]),
        (["hearts", "-d", "0"], ["--defenders", "--tricks", "--uncontested"]),
        (["hearts", "-d", "3", "-w", "1", "-t", "7,3,0"], ["--declarer", "'3' is not a seat"]),
        (["hearts", "-d", "Ana", "-w", "1", "-t", "7,3,0"], ["--declarer", "'Ana' is not a seat"]),
        (["hearts", "-d", "0", "-w", "5", "-t", "7,3,0"], ["--defenders", "'5' is not a seat"]),
        (["surrender", "-d", "1", "-t", "7,3,0"], ["surrender has no"]),
        (["surrender", "-d", "1", "-w", "2"], ["surrender has no"]),
        (["clubs", "-d", "2", "-u", "-w", "1"], ["uncontested deal has no"]),
        (["clubs", "-d", "2", "-u", "-t", "0,0,10"], ["uncontested deal has no"]),
        (["hearts", "-d", "0", "-w", "1", "-t", "7,3,0", "--rules", "bogus"], ["--rules", "unknown preset"]),
        (["hearts", "-d", "0", "-w", "1", "-t", "7,3,0", "--names", "A,B"], ["--names", "three"]),
        ([], ["missing argument"]),
    ],
)
def test_score_bad_input(args: list[str], needles: list[str]) -> None:
    result = invoke("score", *args)
    assert_fails(result, *needles)
    assert result.stdout == ""


# --- sheet ----------------------------------------------------------------------------
def sheet(*args: object) -> Result:
    return invoke("sheet", *args)


def totals_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.startswith("Totals: ")]
    assert lines, output
    return lines[-1]


def saved(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_sheet_round_trip_as_in_the_guide(tmp_path: Path) -> None:
    ev = tmp_path / "evening.json"
    result = sheet("new", ev, "--players", "Ana,Bo,Cy")
    assert_ok(result)
    assert "Ana, Bo, Cy" in result.output
    assert saved(ev)["format"] == "paston-sheet/1"
    assert saved(ev)["deals"] == []

    result = sheet("add", ev, "gupa", "--declarer", "Ana", "--defenders", "Bo", "--tricks", "7,3,0")
    assert_ok(result)
    assert totals_line(result.output) == "Totals: Ana 40, Bo -28, Cy 0"
    assert saved(ev)["totals"] == [40, -28, 0]

    result = sheet("add", ev, "surrender", "--declarer", "Cy")
    assert_ok(result)
    assert totals_line(result.output) == "Totals: Ana 42, Bo -26, Cy -10"
    assert saved(ev)["totals"] == [42, -26, -10]

    result = sheet("show", ev)
    assert_ok(result)
    rows = [cells for cells in table_rows(result.output) if cells[0].isdigit()]
    assert [r[0] for r in rows] == ["1", "2"]
    assert rows[0][1:] == ["Ana: played gupa", "+40 → 40", "-28 → -28", "0 → 0"]
    assert rows[1][1:] == ["Cy: surrender", "+2 → 42", "+2 → -26", "-10 → -10"]
    assert totals_line(result.output) == "Totals: Ana 42, Bo -26, Cy -10"
    assert "Game over" not in result.output

    result = sheet("undo", ev)
    assert_ok(result)
    assert totals_line(result.output) == "Totals: Ana 40, Bo -28, Cy 0"
    assert len(saved(ev)["deals"]) == 1  # type: ignore[arg-type]

    assert_ok(sheet("undo", ev))
    assert_fails(sheet("undo", ev), "R8.1", "no deal to undo", code=1)
    assert totals_line(sheet("show", ev).output) == "Totals: Ana 0, Bo 0, Cy 0"


def test_sheet_resumes_after_reloading(tmp_path: Path) -> None:
    ev = tmp_path / "s.json"
    assert_ok(sheet("new", ev, "--players", "Ana,Bo,Cy"))
    assert_ok(sheet("add", ev, "spades", "-d", "0", "-w", "1,2", "-t", "6,3,1"))
    before = sheet("show", ev).output
    # a fresh runner, as if the program were started again later
    later = invoke("sheet", "show", ev)
    assert_ok(later)
    assert later.output == before
    result = invoke("sheet", "add", ev, "clubs", "-d", "Bo", "-u")
    assert_ok(result)
    assert totals_line(result.output) == "Totals: Ana 10, Bo 30, Cy -9"


def test_sheet_names_as_declarer_and_defenders_case_insensitive(tmp_path: Path) -> None:
    ev = tmp_path / "s.json"
    assert_ok(sheet("new", ev, "--players", "Ana,Bo,Cy"))
    result = sheet("add", ev, "hearts", "--declarer", "cy", "--defenders", "ANA,bo", "--tricks", "2,2,6")
    assert_ok(result)
    assert totals_line(result.output) == "Totals: Ana 0, Bo 0, Cy 40"
    deal = saved(ev)["deals"][0]  # type: ignore[index]
    assert deal["declarer"] == 2 and deal["defenders"] == [0, 1]


def test_sheet_unknown_name_is_refused(tmp_path: Path) -> None:
    ev = tmp_path / "s.json"
    assert_ok(sheet("new", ev, "--players", "Ana,Bo,Cy"))
    before = ev.read_bytes()
    assert_fails(
        sheet("add", ev, "gupa", "-d", "Zed", "-w", "Bo", "-t", "7,3,0"),
        "--declarer",
        "'Zed' is not a seat",
        "Ana, Bo, Cy",
    )
    assert ev.read_bytes() == before


def test_sheet_bad_deal_is_refused_and_the_file_kept(tmp_path: Path) -> None:
    ev = tmp_path / "s.json"
    assert_ok(sheet("new", ev, "--players", "Ana,Bo,Cy"))
    assert_ok(sheet("add", ev, "surrender", "-d", "Ana"))
    before = ev.read_bytes()
    assert_fails(sheet("add", ev, "hearts", "-d", "Ana", "-w", "Bo", "-t", "7,3,1"), "R6.3")
    assert_fails(sheet("add", ev, "notrump", "-d", "Ana", "-w", "Bo", "-t", "7,3,0"), "notrump")
    assert_fails(sheet("add", ev, "hearts", "-d", "Ana", "-w", "Ana", "-t", "7,3,0"), "R5.2")
    assert_fails(sheet("add", ev, "hearts", "-d", "Ana", "-w", "Bo"), "--tricks")
    assert_fails(sheet("add", ev, "hearts", "-w", "Bo", "-t", "7,3,0"), "--declarer")
    assert ev.read_bytes() == before


def test_sheet_reset_at_exactly_minus_target_is_shown(tmp_path: Path) -> None:
    ev = tmp_path / "r.json"
    assert_ok(sheet("new", ev, "--players", "Ana,Bo,Cy", "--rules", "target=20"))
    assert_ok(sheet("add", ev, "surrender", "-d", "Bo"))
    result = sheet("add", ev, "surrender", "-d", "Bo")
    assert_ok(result)
    assert totals_line(result.output) == "Totals: Ana 4, Bo 0, Cy 4"
    rows = [cells for cells in table_rows(result.output) if cells[0].isdigit()]
    assert rows[1][3] == "-10 → 0 ↺0"
    assert "↺" not in rows[0][3]
    assert "exactly -20 was reset to 0 (R8.2)" in result.output
    show = sheet("show", ev)
    assert "↺0" in show.output and "(R8.2)" in show.output
    assert "(target 20)" in show.output
    # the next deal starts from 0
    result = sheet("add", ev, "surrender", "-d", "Bo")
    assert totals_line(result.output) == "Totals: Ana 6, Bo -10, Cy 6"


def test_sheet_no_reset_when_passing_below_minus_target(tmp_path: Path) -> None:
    ev = tmp_path / "r.json"
    assert_ok(sheet("new", ev, "--players", "Ana,Bo,Cy", "--rules", "target=25"))
    for _ in range(3):
        result = sheet("add", ev, "surrender", "-d", "Bo")
        assert_ok(result)
    assert totals_line(result.output) == "Totals: Ana 6, Bo -30, Cy 6"
    assert "↺" not in result.output


def test_sheet_winner_is_announced_and_further_deals_refused(tmp_path: Path) -> None:
    ev = tmp_path / "w.json"
    assert_ok(sheet("new", ev, "--players", "Ana,Bo,Cy", "--rules", "target=20"))
    assert_ok(sheet("add", ev, "surrender", "-d", "Bo"))
    result = sheet("add", ev, "clubs", "-d", "Cy", "--uncontested")
    assert_ok(result)
    assert "Game over: Cy wins (R8.3)." in result.output
    assert saved(ev)["winners"] == [2]
    assert "Game over: Cy wins (R8.3)." in sheet("show", ev).output
    before = ev.read_bytes()
    assert_fails(sheet("add", ev, "surrender", "-d", "Ana"), "R8.3", "game is over", code=1)
    assert ev.read_bytes() == before
    # a mistyped last deal can still be taken back
    result = sheet("undo", ev)
    assert_ok(result)
    assert "Game over" not in result.output
    assert_ok(sheet("add", ev, "surrender", "-d", "Ana"))


def test_sheet_shared_victory(tmp_path: Path) -> None:
    ev = tmp_path / "w.json"
    assert_ok(sheet("new", ev, "--players", "Ana,Bo,Cy", "--rules", "target=20"))
    # Ana fails clubs: -20 (reset to 0); Bo and Cy +40 each
    result = sheet("add", ev, "clubs", "-d", "Ana", "-w", "Bo,Cy", "-t", "2,4,4")
    assert_ok(result)
    assert totals_line(result.output) == "Totals: Ana 0, Bo 40, Cy 40"
    assert "Game over: Bo and Cy share the victory (R8.3)." in result.output
    assert "↺0" in result.output


def test_sheet_rules_variant_is_used(tmp_path: Path) -> None:
    ev = tmp_path / "f.json"
    assert_ok(sheet("new", ev, "--players", "Ana,Bo,Cy", "--rules", "flat,surrender_bonus=0"))
    assert saved(ev)["rules"]["lone_defender"] == "flat"  # type: ignore[index]
    assert totals_line(sheet("add", ev, "hearts", "-d", "0", "-w", "1", "-t", "7,3,0").output) == (
        "Totals: Ana 40, Bo -36, Cy 0"
    )
    assert totals_line(sheet("add", ev, "surrender", "-d", "2").output) == "Totals: Ana 40, Bo -36, Cy -10"


def test_sheet_new_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    ev = tmp_path / "s.json"
    assert_ok(sheet("new", ev, "--players", "Ana,Bo,Cy"))
    assert_ok(sheet("add", ev, "surrender", "-d", "Ana"))
    before = ev.read_bytes()
    assert_fails(sheet("new", ev, "--players", "Dan,Eve,Fay"), "already exists", "--force")
    assert ev.read_bytes() == before
    result = sheet("new", ev, "--players", "Dan,Eve,Fay", "--force")
    assert_ok(result)
    assert saved(ev)["players"] == ["Dan", "Eve", "Fay"]
    assert saved(ev)["deals"] == []


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--players", "Ana,Bo"], ["--players", "three"]),
        (["--players", "Ana,,Cy"], ["--players", "three"]),
        (["--players", "Ana,Bo,Cy", "--rules", "target=abc"], ["--rules", "target"]),
        ([], ["--players"]),
    ],
)
def test_sheet_new_bad_arguments(tmp_path: Path, args: list[str], needles: list[str]) -> None:
    ev = tmp_path / "s.json"
    assert_fails(sheet("new", ev, *args), *needles)
    assert not ev.exists()


def test_sheet_commands_on_a_missing_sheet(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    for args in (["show", missing], ["undo", missing], ["add", missing, "surrender", "-d", "0"]):
        assert_fails(sheet(*args), "no sheet at", "sheet new", code=2)
    assert not missing.exists()


def test_sheet_hand_edited_wrong_score_is_rejected(tmp_path: Path) -> None:
    ev = tmp_path / "s.json"
    assert_ok(sheet("new", ev, "--players", "Ana,Bo,Cy"))
    assert_ok(sheet("add", ev, "gupa", "-d", "Ana", "-w", "Bo", "-t", "7,3,0"))
    assert_ok(sheet("add", ev, "surrender", "-d", "Cy"))
    data = saved(ev)
    data["deals"][1]["scores"] = [2, 2, -9]  # type: ignore[index]
    ev.write_text(json.dumps(data, indent=2), encoding="utf-8")
    before = ev.read_bytes()
    for args in (["show", ev], ["undo", ev], ["add", ev, "surrender", "-d", "0"]):
        assert_fails(sheet(*args), "deal 2", "wrong scores", code=1)
    assert ev.read_bytes() == before


def test_sheet_hand_edited_impossible_deal_is_rejected(tmp_path: Path) -> None:
    ev = tmp_path / "s.json"
    assert_ok(sheet("new", ev, "--players", "Ana,Bo,Cy"))
    assert_ok(sheet("add", ev, "gupa", "-d", "Ana", "-w", "Bo", "-t", "7,3,0"))
    data = saved(ev)
    data["deals"][0]["tricks"] = [7, 3, 1]  # type: ignore[index]
    ev.write_text(json.dumps(data), encoding="utf-8")
    assert_fails(sheet("show", ev), "deal 1 of the sheet is invalid", "R6.3", code=1)
    data["deals"][0]["tricks"] = [7, 3, 0]  # type: ignore[index]
    data["deals"][0]["contract"] = "notrump"  # type: ignore[index]
    ev.write_text(json.dumps(data), encoding="utf-8")
    assert_fails(sheet("show", ev), "deal 1 of the sheet is invalid", "notrump", code=1)


def test_sheet_file_that_is_not_a_sheet(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    assert_fails(sheet("show", broken), "cannot read the sheet", code=1)
    record = tmp_path / "game.json"
    assert_ok(invoke("simulate", "--out", record, "-q"))
    assert_fails(sheet("show", record), "not a score sheet", "paston-sheet/1", code=1)


def test_sheet_names_differing_only_in_case_do_not_score_the_wrong_player(tmp_path: Path) -> None:
    """Seats may be named as --declarer; two names equal but for case make that ambiguous.
    Either ``new`` refuses such names, or naming 'ana' must not score seat 0 ('Ana')."""
    ev = tmp_path / "s.json"
    new = sheet("new", ev, "--players", "Ana,ana,Bo")
    if new.exit_code != 0:
        assert_fails(new, "--players")
        return
    added = sheet("add", ev, "surrender", "--declarer", "ana")
    if added.exit_code != 0:
        assert_fails(added, "--declarer")
        return
    assert saved(ev)["deals"][0]["declarer"] == 1, "'ana' was scored as seat 0 (Ana)"  # type: ignore[index]


def test_sheet_help_lists_its_commands() -> None:
    result = sheet("--help")
    assert_ok(result)
    text = flat(result.output)
    for command in ("new", "add", "show", "undo"):
        assert command in text


@pytest.mark.parametrize(
    "args",
    [
        ["sheet", "new", "{out}", "--players", "A,B,C"],
        ["simulate", "--out", "{out}", "-q"],
        ["tournament", "--players", "heuristic,random", "--deals", "1", "--workers", "1", "--out", "{out}"],
        ["play", "--opponents", "random,random", "--out", "{out}"],
    ],
    ids=lambda a: a[0] if a[0] != "sheet" else "sheet new",
)
def test_every_command_refuses_an_output_file_in_a_missing_folder_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # a short path, so that the message is not wrapped
    out = Path("missing") / "out.json"
    result = invoke(*(str(out) if a == "{out}" else a for a in args), input="quit\n")
    assert_fails(result, f"cannot write {out}: the folder {out.parent} does not exist", code=2)
    assert not out.parent.exists()


# --- the guide's examples, as written ---------------------------------------------------
GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide" / "score.md"


def guide_commands() -> list[tuple[list[str], str]]:
    """``paston …`` lines of the guide's sh blocks: (arguments after 'paston', comment)."""
    text = GUIDE.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S):
        for line in block.splitlines():
            command, _, comment = line.strip().partition("#")
            if command.startswith("paston "):
                out.append((shlex.split(command)[1:], comment.strip()))
    return out


def test_score_guide_examples_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``paston`` line of docs/guide/score.md, in order, in an empty directory: each
    ``score`` gives the scores its comment says, and the sheet ends as the guide leaves it."""
    monkeypatch.chdir(tmp_path)
    commands = guide_commands()
    assert {args[0] for args, _ in commands} == {"score", "sheet"}
    assert {args[1] for args, _ in commands if args[0] == "sheet"} == {"new", "add", "show", "undo"}
    for args, comment in commands:
        result = invoke(*args)
        assert_ok(result)
        if args[0] == "score":
            assert comment, f"paston {' '.join(args)} has no expected scores"
            assert scores_of(result.output) == tuple(s.strip() for s in comment.split(",")), args
    data = saved(tmp_path / "evening.json")
    assert len(data["deals"]) == 1  # type: ignore[arg-type]  # two deals added, the last undone
