"""``paston hint``: the options of one recorded decision, from the view of the seat to
move; and ``hint`` typed at any prompt of ``paston play``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli_helpers import assert_fails, assert_ok, invoke
from paston.actions import Kind
from paston.bots.explain import explain
from paston.deal import Phase
from paston.record import read_file

KINDS = {
    Phase.AUCTION: {Kind.BID, Kind.PASS},
    Phase.DISCARD: {Kind.DISCARD},
    Phase.TRUMP: {Kind.TRUMP, Kind.SURRENDER},
    Phase.DEFENCE: {Kind.WHIST, Kind.PASS},
    Phase.PLAY: {Kind.PLAY},
}


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hint") / "games.jsonl"
    players = "heuristic,heuristic,heuristic"
    args = ("--games", "2", "--seed", "1", "--players", players, "--max-deals", "4")
    assert_ok(invoke("simulate", "--out", out, *args))
    return out


def decisions(record: Path) -> dict[Phase, tuple[int, int]]:
    """The first (deal, action) of each kind of decision in game 0 of the record."""
    match = read_file(record)[0]
    found: dict[Phase, tuple[int, int]] = {}
    for d, deal in enumerate(match.deals):
        for a, event in enumerate(deal.events):
            phase = deal.state_at(a).phase
            found.setdefault(phase, (d, a))
            del event
    return found


def test_hint_prints_the_options_of_every_kind_of_decision(record: Path) -> None:
    match = read_file(record)[0]
    found = decisions(record)
    assert set(found) >= {Phase.AUCTION, Phase.DISCARD, Phase.TRUMP, Phase.PLAY}
    for phase, (d, a) in found.items():
        out = assert_ok(invoke("hint", "--record", record, "--deal", d, "--action", a, "--level", "1"))
        state = match.deals[d].state_at(a)
        assert state.to_move is not None
        hint = explain(state.view(state.to_move), level=1, seed=0)
        assert {o.action.kind for o in hint.options} <= KINDS[phase]
        assert f"before action {a}: " in out and phase.duty in out
        assert "expected score" in out and "(chance: to" in out and "◀ suggested" in out
        if match.deals[d].events[a].action in {o.action for o in hint.options}:
            assert "◀ played" in out  # the option played in the game
        # every option, best first, with its score; the mark on the player's choice
        rows = [f"{i} {o.action.pretty()} {o.score:+.2f}" for i, o in enumerate(hint.options, start=1)]
        positions = [out.index(row) for row in rows]
        assert positions == sorted(positions)
        chosen = next(i for i, o in enumerate(hint.options, start=1) if o.action == hint.chosen)
        suggested = (
            rf"{chosen} {re.escape(hint.chosen.pretty())} [-+][\d.]+ (?:\d+% )?(?:[\d.]+ )?◀ suggested"
        )
        assert re.search(suggested, out)
        assert f"Played in the game: {match.deals[d].events[a].action.pretty()}" in out
        if phase is Phase.PLAY:
            tricks = hint.options[0].tricks
            assert tricks is not None and f"{tricks:.2f}" in out


def test_hint_is_the_same_for_the_same_seed_and_names_the_level(record: Path) -> None:
    d, a = decisions(record)[Phase.PLAY]
    first = assert_ok(
        invoke("hint", "--record", record, "--deal", d, "--action", a, "-l", "1", "--seed", "4")
    )
    again = assert_ok(
        invoke("hint", "--record", record, "--deal", d, "--action", a, "-l", "1", "--seed", "4")
    )
    assert first == again and "pimc level 1 on 6 sampled worlds" in first


def test_hint_of_another_game_of_the_file(record: Path) -> None:
    out = assert_ok(
        invoke("hint", "--record", record, "--game", "1", "--deal", "0", "--action", "0", "-l", "1")
    )
    assert out.startswith("Game 1, deal 0, before action 0:")


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--deal", "99", "--action", "0"], ["--deal must be 0 to"]),
        (["--deal", "0", "--action", "999"], ["deal 0 has", "--action must be 0 to"]),
        (["--game", "5", "--deal", "0", "--action", "0"], ["holds 2 games", "--game must be below 2"]),
        (["--deal", "-1", "--action", "0"], ["--deal"]),
        (["--deal", "0", "--action", "x"], ["--action"]),
        (["--deal", "0", "--action", "0", "--level", "9"], ["--level"]),
        (["--deal", "0"], ["--action"]),
    ],
)
def test_hint_bad_numbers_fail_readably(record: Path, args: list[str], needles: list[str]) -> None:
    assert_fails(invoke("hint", "--record", record, *args), *needles)


def test_hint_after_the_last_action_of_a_finished_deal_says_nobody_is_to_move(record: Path) -> None:
    match = read_file(record)[0]
    d = next(i for i, deal in enumerate(match.deals) if deal.is_over and deal.redeal is None)
    end = len(match.deals[d].events)
    assert_fails(invoke("hint", "--record", record, "--deal", d, "--action", end), "the deal is over", code=2)


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("{bad json", "not valid JSON"),
        ('{"format": "paston/1", "seats": ["a"]}', "games.jsonl"),
        ("", "holds no game record"),
    ],
)
def test_hint_malformed_record_fails_readably(tmp_path: Path, content: str, needle: str) -> None:
    bad = tmp_path / "games.jsonl"
    bad.write_text(content, encoding="utf-8")
    assert_fails(invoke("hint", "--record", bad, "--deal", "0", "--action", "0"), needle)


def test_hint_missing_record_file_fails_readably(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a short path: the error panel wraps a long one mid-word
    assert_fails(invoke("hint", "--record", "nope.json", "--deal", "0", "--action", "0"), "nope.json")


def test_hint_help_explains_the_command() -> None:
    out = assert_ok(invoke("hint", "--help"))
    for needle in (
        "--record",
        "--deal",
        "--action",
        "--game",
        "--level",
        "seat to move",
        "paston hint --record",
    ):
        assert needle in out, needle


def test_hint_at_any_prompt_of_the_terminal_game(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    feed = ("hint\n" + "1 2\n1\n") * 40 + "quit\n"
    result = invoke("play", "--out", out, "--opponents", "random,random", "--seed", "42", input=feed)
    text = assert_ok(result)
    assert "Options for you, best first" in text and "◀ suggested" in text
    assert "pimc level 3 on" in text
    # a hint at the auction's prompt and one at a card's prompt (with expected tricks)
    assert re.search(r"1 (?:pass|bid [a-z]+ \([♠♣♦♥]\)) [-+][\d.]+ ", text)
    assert re.search(r"\d+ play (?:10|[7-9JQKA])[♠♣♦♥] [-+][\d.]+ (?:\d+% )?[\d.]+ ", text)
    assert invoke("play", "--help").exit_code == 0
    again = invoke("play", "--out", tmp_path / "x.json", "--opponents", "random,random", input="help\nquit\n")
    assert "'hint'" in assert_ok(again)
