"""``paston play``: a whole game in the terminal, driven by typed lines."""

from __future__ import annotations

import builtins
import json
import re
from pathlib import Path

import pytest
from tests.cli_helpers import DRIVE, assert_fails, assert_ok, flat, invoke, play

from paston.record import read_file


def lines(*typed: str) -> str:
    return "".join(t + "\n" for t in typed)


# --- whole games ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "target"),
    [
        (["--seed", "42", "--rules", "target=20"], 20),
        (["--seed", "2", "--rules", "short"], 61),
        (["--seed", "1", "--rules", "short", "--name", "Ana", "--seat", "1"], 61),
        (["--seed", "5", "--rules", "flat,target=30"], 30),
    ],
)
def test_play_a_whole_game(tmp_path: Path, args: list[str], target: int) -> None:
    out = tmp_path / "game.json"
    result = play(out, *args, input=DRIVE)
    assert_ok(result)
    text = result.output
    assert "Traceback" not in text
    assert f"Game to {target}." in text
    assert "=== Deal 1:" in text
    assert "Your hand:" in text
    assert any(s in text for s in "♠♣♦♥")
    assert "Game over:" in text
    assert f"Game record saved to {out}" in text
    (match,) = read_file(out)
    assert match.is_over
    assert match.rules.target == target
    names = match.seats
    human = "Ana" if "Ana" in args else "You"
    seat = int(args[args.index("--seat") + 1]) if "--seat" in args else 0
    assert names[seat] == human
    winners = " and ".join(names[s] for s in match.winners)
    final = ", ".join(f"{names[s]} {match.totals[s]}" for s in range(3))
    assert f"Game over: {winners} " in text
    assert f"Final totals: {final}" in text
    # the saved record is a pretty-printed paston/1 object that `check` accepts
    assert json.loads(out.read_text(encoding="utf-8"))["format"] == "paston/1"
    assert_ok(invoke("check", out))


def test_play_as_declarer_discards_two_cards(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    # seed 1: bidding clubs at the first prompt makes the human the declarer
    result = play(out, "--seed", "1", "--rules", "target=20", input="2\n" + DRIVE)
    assert_ok(result)
    assert "You declare. The prikup:" in result.output
    assert "Discard two cards" in result.output
    (match,) = read_file(out)
    record = json.loads(out.read_text(encoding="utf-8"))
    discards = [a for d in record["deals"] for a in d["actions"] if a["type"] == "discard" and a["seat"] == 0]
    assert discards, "the human's discard is in the record"
    assert match.is_over


def test_play_same_seed_and_input_gives_the_same_record(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert_ok(play(a, "--seed", "9", "--rules", "short", input=DRIVE))
    assert_ok(play(b, "--seed", "9", "--rules", "short", input=DRIVE))
    assert a.read_bytes() == b.read_bytes()
    c = tmp_path / "c.json"
    assert_ok(play(c, "--seed", "10", "--rules", "short", input=DRIVE))
    assert a.read_bytes() != c.read_bytes()


def test_play_without_seed_prints_a_seed_that_reproduces_the_game(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    first = play(a, "--rules", "target=20", input=DRIVE)
    assert_ok(first)
    found = re.search(r"Seed (\d+)\.", first.output)
    assert found, first.output
    assert_ok(play(b, "--rules", "target=20", "--seed", found.group(1), input=DRIVE))
    assert a.read_bytes() == b.read_bytes()


def test_play_default_out_file_in_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke("play", "--seed", "3", input="quit\n")
    assert_ok(result)
    saved = list(tmp_path.glob("paston-*.json"))
    assert len(saved) == 1, list(tmp_path.iterdir())
    assert f"Game saved (unfinished) to {saved[0].name}" in result.output
    read_file(saved[0])


# --- quitting --------------------------------------------------------------------------
@pytest.mark.parametrize("word", ["quit", "q", "exit", "QUIT"])
def test_quit_at_the_first_prompt_saves_an_unfinished_valid_record(tmp_path: Path, word: str) -> None:
    out = tmp_path / "q.json"
    result = play(out, "--seed", "42", "--rules", "target=20", input=lines(word, "1", "1"))
    assert_ok(result)
    assert f"Game saved (unfinished) to {out}" in result.output
    assert "Game over" not in result.output
    (match,) = read_file(out)
    assert not match.is_over
    assert match.winners == ()
    assert json.loads(out.read_text(encoding="utf-8"))["winners"] == []
    assert_ok(invoke("check", out))


def test_quit_mid_deal_keeps_earlier_deals(tmp_path: Path) -> None:
    out = tmp_path / "q.json"
    # seed 42: deal 1 ends after the human's first choice; quit during deal 2's play
    result = play(out, "--seed", "42", "--rules", "target=20", input=lines("1", "1", "1", "1", "quit"))
    assert_ok(result)
    assert "Game saved (unfinished)" in result.output
    (match,) = read_file(out)
    assert match.completed_deals >= 1
    assert not match.is_over
    record = json.loads(out.read_text(encoding="utf-8"))
    assert "result" in record["deals"][0]
    assert "result" not in record["deals"][-1]
    replay = invoke("replay", out)
    assert_ok(replay)
    assert "The game is unfinished." in replay.output


def test_end_of_input_saves_too(tmp_path: Path) -> None:
    out = tmp_path / "eof.json"
    result = play(out, "--seed", "42", "--rules", "target=20", input="")
    assert_ok(result)
    assert "Game saved (unfinished)" in result.output
    (match,) = read_file(out)
    assert not match.is_over
    out2 = tmp_path / "eof2.json"
    assert_ok(play(out2, "--seed", "42", "--rules", "target=20", input=lines("1", "1", "1")))
    assert not read_file(out2)[0].is_over


def test_ctrl_c_exits_without_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(prompt: object = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", interrupted)
    result = play(tmp_path / "c.json", "--seed", "42", input="")
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


# --- illegal input --------------------------------------------------------------------
# seed 42, target 20: prompt 1 is the human's first bid (deal 1); prompts 2-3 are deal 2's
# auction and defence; prompt 4 is the human's card in trick 1 (clubs led; holds ♣ 10 9, ♦ A J).
LEGAL = ["1", "1", "1", "1"]


def test_illegal_actions_name_the_rule_and_change_nothing(tmp_path: Path) -> None:
    clean = tmp_path / "clean.json"
    noisy = tmp_path / "noisy.json"
    args = ("--seed", "42", "--rules", "target=20")
    assert_ok(play(clean, *args, input=lines(*LEGAL, "quit")))
    typed = [
        "bid best-spades",  # R3.2: the first bid must be spades
        "best-spades",
        "clubs",
        "surrender",  # not in the auction
        "1",
        "1",
        "1",
        "QS",  # not held
        "AD",  # must follow clubs
        "1",
        "quit",
    ]
    result = play(noisy, *args, input=lines(*typed))
    assert_ok(result)
    text = result.output
    assert "R3.2: the first bid of a deal must be spades, not best-spades" in text
    assert "R3.2: the first bid of a deal must be spades, not clubs" in text
    assert "'surrender' is not possible now" in text
    # the person is named and the cards shown with suit symbols (the engine says "seat 0", "QS")
    assert "R6.2: You do not hold Q♠" in text
    assert "R6.2: You must follow clubs (you hold 10♣ 9♣)" in text
    assert ": seat 0" not in text and "QS" not in text
    assert "Traceback" not in text
    assert noisy.read_bytes() == clean.read_bytes()
    # every typed line was answered by a new prompt
    assert text.count("Your choice: ") == len(typed)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("0", "choose a number from 1 to 2"),
        ("3", "choose a number from 1 to 2"),
        ("notrump", "cannot parse contract 'notrump'"),
        ("AH", "cannot parse contract 'AH'"),
        ("bid", "cannot parse action 'bid'"),
        ("xyzzy", "cannot parse"),
    ],
)
def test_unparsable_input_is_explained_and_reprompted(tmp_path: Path, typed: str, message: str) -> None:
    out = tmp_path / "g.json"
    result = play(out, "--seed", "42", "--rules", "target=20", input=lines(typed, "quit"))
    assert_ok(result)
    assert message in result.output
    assert "(type 'help' for help)" in result.output
    assert result.output.count("Your choice: ") == 2
    (match,) = read_file(out)
    assert not any(e.seat == 0 for d in match.deals for e in d.events), "nothing was applied for the human"


def test_discard_prompt_needs_two_cards(tmp_path: Path) -> None:
    out = tmp_path / "d.json"
    typed = ["2", "1", "1 1", "1 99", "ZZ 1", "AS 9H", "pass", "hand", "1 2", "quit"]
    result = play(out, "--seed", "1", "--rules", "target=20", input=lines(*typed))
    assert_ok(result)
    text = result.output
    assert "give exactly two cards to discard" in text
    assert "a discard needs two different cards" in text
    assert "choose numbers from 1 to 12" in text
    assert "cannot parse card 'ZZ'" in text
    assert "R4.1: You cannot discard A♠" in text
    assert text.count("Discard two cards") == 8  # one prompt for each line up to '1 2'
    assert "Name trump or surrender" in text
    (match,) = read_file(out)
    discards = [e for e in match.deals[0].events if e.action.kind.name == "DISCARD"]
    assert len(discards) == 1 and discards[0].seat == 0
    assert len(discards[0].action.cards) == 2


# --- commands at any prompt ------------------------------------------------------------
def test_help_hand_score_last_at_any_prompt(tmp_path: Path) -> None:
    out = tmp_path / "h.json"
    feed = ("help\nhand\nscore\nlast\n" + "1 2\n1\n") * 600
    result = play(out, "--seed", "42", "--rules", "target=20", input=feed)
    assert_ok(result)
    text = result.output
    assert "Type the number of a choice" in text and "'quit' saves the game" in text
    for word in ("glitch", "dineri", "gupa", "paston grkha", "The declarer needs 6 of the 10 tricks"):
        assert word in text  # help explains the ladder's words
    assert re.search(r"^Your choice: Your hand: [♠♣♦♥]", text, flags=re.M)
    assert re.search(
        r"^Your choice: Totals: You [-+]?\d+, Computer A \(random\) [-+]?\d+, "
        r"Computer B \(random\) [-+]?\d+$",
        text,
        flags=re.M,
    )
    assert "No trick has been completed yet." in text
    assert re.search(r"^Your choice: Last trick: .* → ", text, flags=re.M)
    assert "Game over:" in text
    # the commands changed nothing: the same game as without them
    plain = tmp_path / "plain.json"
    assert_ok(play(plain, "--seed", "42", "--rules", "target=20", input=DRIVE))
    assert out.read_bytes() == plain.read_bytes()


def test_empty_lines_are_ignored(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert_ok(play(a, "--seed", "42", "--rules", "target=20", input=lines("", "  ", "1", "quit")))
    assert_ok(play(b, "--seed", "42", "--rules", "target=20", input=lines("1", "quit")))
    assert a.read_bytes() == b.read_bytes()


def test_actions_can_be_typed_as_words_and_cards(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    args = ("--seed", "42", "--rules", "target=20")
    assert_ok(play(a, *args, input=lines("pass", "PASS", "whist", "9♣", "quit")))
    assert_ok(play(b, *args, input=lines(*LEGAL, "quit")))
    assert a.read_bytes() == b.read_bytes()


# --- bad options ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--seat", "3"], ["--seat"]),
        (["--seat", "-1"], ["--seat"]),
        (["--opponents", "random,deepblue"], ["--opponents", "'deepblue'"]),
        (["--opponents", "random"], ["--opponents"]),
        (["--rules", "bogus"], ["--rules", "unknown preset"]),
        (["--rules", "target=abc"], ["--rules", "target"]),
        (["--name", "   "], ["--name", "empty"]),
        (["--seed", "abc"], ["--seed"]),
    ],
)
def test_play_bad_options(tmp_path: Path, args: list[str], needles: list[str]) -> None:
    out = tmp_path / "never.json"
    assert_fails(play(out, *args, input="quit\n"), *needles, code=2)
    assert not out.exists()


def test_play_out_in_a_missing_directory_fails_readably(tmp_path: Path) -> None:
    out = tmp_path / "missing" / "g.json"
    # refused before any deal is played
    assert_fails(play(out, "--seed", "1", input="quit\n"), "does not exist", "missing", code=2)


def test_play_help() -> None:
    result = invoke("play", "--help")
    assert_ok(result)
    text = flat(result.output)
    for option in ("--name", "--seat", "--opponents", "--seed", "--rules", "--out"):
        assert option in text


# --- output file, names, help -------------------------------------------------------------
def test_play_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    out.write_text("precious", encoding="utf-8")
    assert_fails(play(out, "--seed", "1", input="quit\n"), "already exists", "--force", code=2)
    assert out.read_text(encoding="utf-8") == "precious"
    assert_ok(play(out, "--seed", "1", "--force", input="quit\n"))
    assert read_file(out)[0].seats[0] == "You"


@pytest.mark.parametrize("name", ["random", "Random", "pimc:2", "heuristic", "random (1)", "Ana (2)"])
def test_play_refuses_a_name_that_is_not_distinct_from_the_computer_players(
    tmp_path: Path, name: str
) -> None:
    out = tmp_path / "never.json"
    assert_fails(play(out, "--name", name, input="quit\n"), "--name", "computer player", code=2)
    assert not out.exists()


def test_play_help_lists_presets_and_players_with_descriptions() -> None:
    from paston.bots.base import PLAYERS
    from paston.rules import PRESETS

    text = flat(invoke("play", "--help").output)
    for preset in PRESETS:
        assert preset in text
    for player in PLAYERS:
        assert f"{player.name}: {player.description}" in text


# --- what the person reads -----------------------------------------------------------------
WRONG_VERBS = re.compile(r"\bYou (deals|bids|makes|fails|wins|surrenders|takes|discards|names|plays)\b")
WRONG_COUNTS = re.compile(r"\b1 (tricks|deals|games|cards)\b|\b(0|[2-9]|10) (trick|deal|game|card)\b(?!s)")


@pytest.mark.parametrize("seed", ["1", "4", "5", "42"])
def test_play_speaks_to_you_in_good_grammar(tmp_path: Path, seed: str) -> None:
    result = play(tmp_path / "g.json", "--seed", seed, "--rules", "target=20", input=DRIVE)
    assert_ok(result)
    text = result.output
    assert not WRONG_VERBS.search(text), WRONG_VERBS.search(text)
    assert not WRONG_COUNTS.search(text), WRONG_COUNTS.search(text)
    assert re.search(r"You (deal|bid first|make|fail|win|share)", text)


@pytest.mark.parametrize("seed", ["4", "5"])
def test_a_computer_players_surrender_is_announced_once(tmp_path: Path, seed: str) -> None:
    # seeds 4 and 5: a random opponent surrenders
    result = play(tmp_path / "g.json", "--seed", seed, "--rules", "target=20", input=DRIVE)
    assert_ok(result)
    surrenders = [  # (the summary's lines of R7.7 say what the surrender scores)
        line
        for line in result.output.splitlines()
        if "surrender" in line and "Your" not in line and "R7.7" not in line
    ]
    assert surrenders, result.output
    assert all(line.endswith("surrenders (R4.3).") for line in surrenders), surrenders


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("-1", "choose a number from 1 to 2"),
        ("d8", "cannot parse contract 'd8'"),
        ("8 d", "cannot parse contract '8 d'"),
    ],
)
def test_auction_numbers_and_cards_are_explained(tmp_path: Path, typed: str, message: str) -> None:
    result = play(tmp_path / "g.json", "--seed", "42", "--rules", "target=20", input=lines(typed, "quit"))
    assert_ok(result)
    assert message in result.output
    assert "expected pass, bid CONTRACT" not in result.output


def test_cards_typed_the_wrong_way_round_are_explained(tmp_path: Path) -> None:
    # seed 42: the fourth prompt is the person's card in trick 1
    typed = lines("1", "1", "1", "d8", "8 d", "♣9", "quit")
    result = play(tmp_path / "g.json", "--seed", "42", "--rules", "target=20", input=typed)
    assert_ok(result)
    text = result.output
    assert "cannot parse card 'd8': write the rank before the suit, e.g. '8D' for 8♦" in text
    assert "cannot parse '8 d': write a card as one word, e.g. '8D' for 8♦" in text
    assert "cannot parse card '♣9': write the rank before the suit, e.g. '9C' for 9♣" in text
    assert "expected pass, bid CONTRACT" not in text


# --- resuming a saved game -------------------------------------------------------------------
def test_resume_a_quit_game_and_finish_it(tmp_path: Path) -> None:
    args = ("--seed", "42", "--rules", "target=20")
    whole = tmp_path / "whole.json"
    assert_ok(play(whole, *args, input=DRIVE))
    saved = tmp_path / "saved.json"
    assert_ok(play(saved, *args, input=lines("1", "1", "1", "1", "quit")))
    (before,) = read_file(saved)
    assert not before.is_over and before.completed_deals >= 1
    # the same seed: the saved game goes on with the deals it would have had
    result = invoke("play", "--resume", saved, "--seed", "42", input=DRIVE)
    assert_ok(result)
    text = result.output
    assert f"resuming {saved}: you sit in seat 0" in text
    assert "Trick 1:" in text.split("Your choice:")[0], "the tricks so far are shown again"
    assert "Game over:" in text and f"Game record saved to {saved}" in text
    (after,) = read_file(saved)
    assert after.is_over
    assert after.seats == before.seats and after.rules == before.rules
    for old, new in zip(before.deals, after.deals, strict=False):
        assert new.events[: len(old.events)] == old.events
    uninterrupted = read_file(whole)[0]
    for a, b in zip(after.deals, uninterrupted.deals, strict=False):
        assert list(a.deck) == list(b.deck)
    assert_ok(invoke("check", saved))


def test_resume_twice_and_without_a_seed(tmp_path: Path) -> None:
    saved = tmp_path / "saved.json"
    assert_ok(play(saved, "--seed", "7", "--rules", "target=20", input=lines("1", "quit")))
    first = invoke("play", "--resume", saved, input=lines("1", "quit"))
    assert_ok(first)
    assert re.search(r"Seed \d+\.", first.output)
    assert_ok(invoke("play", "--resume", saved, input=DRIVE))
    assert read_file(saved)[0].is_over


def test_resume_as_the_seat_given(tmp_path: Path) -> None:
    saved = tmp_path / "saved.json"
    assert_ok(play(saved, "--seed", "3", "--seat", "2", "--name", "Ana", input="quit\n"))
    result = invoke("play", "--resume", saved, "--seat", "2", input="quit\n")
    assert_ok(result)
    assert "you are Ana, in seat 2" in result.output
    assert_fails(invoke("play", "--resume", saved, "--seat", "0", input="quit\n"), "'Ana'", "computer player")


def test_resume_refusals(tmp_path: Path) -> None:
    saved = tmp_path / "saved.json"
    assert_ok(play(saved, "--seed", "42", "--rules", "target=20", input="quit\n"))
    kept = saved.read_bytes()
    for option, value in (("--name", "Bo"), ("--opponents", "random,random"), ("--rules", "short")):
        assert_fails(
            invoke("play", "--resume", saved, option, value, input="quit\n"), "--resume", option, code=2
        )
    assert_fails(invoke("play", "--resume", saved, "--out", tmp_path / "x.json"), "--resume", "--out")
    wrong_seed = invoke("play", "--resume", saved, "--seed", "43", input="quit\n")
    assert_fails(wrong_seed, "not dealt with --seed 43")
    assert saved.read_bytes() == kept
    finished = tmp_path / "finished.json"
    assert_ok(play(finished, "--seed", "42", "--rules", "target=20", input=DRIVE))
    assert_fails(invoke("play", "--resume", finished), "is over", code=2)
    games = tmp_path / "games.jsonl"
    assert_ok(invoke("simulate", "--out", games, "--games", 2, "-q"))
    assert_fails(invoke("play", "--resume", games), "holds 2 games", code=2)
    assert_fails(invoke("play", "--resume", tmp_path / "none.json"), "none.json", code=2)


@pytest.mark.parametrize(("args", "seated"), [([], "infer:3"), (["--level", "1"], "infer:1")])
def test_play_default_opponents_are_the_strongest_player_at_the_level(
    tmp_path: Path, args: list[str], seated: str
) -> None:
    """Without --opponents, ``paston play`` seats two of the registry's default player
    (``infer``) at ``--level``; the game is saved after quitting at once."""
    out = tmp_path / "g.json"
    assert_ok(invoke("play", "--out", out, "--seed", "3", *args, input="quit\n"))
    (match,) = read_file(out)
    seats = list(match.seats)
    kind, level = seated.split(":")
    assert seats[1:] == [f"Computer A ({kind}, level {level})", f"Computer B ({kind}, level {level})"]
