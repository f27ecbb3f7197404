"""The full-screen terminal app (paston.tui), driven by Textual's pilot: whole deals by
keyboard and mouse, the record saved, nothing hidden shown, people sharing a keyboard,
the forced choice, help, and the layout at 80×24."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.tui_helpers import CARD, legal_key, play_until, run, screen_text, session, wait_idle
from textual.markup import escape
from textual.pilot import Pilot

from paston.cards import Card
from paston.match import Match
from paston.phases import Phase
from paston.record import iter_file
from paston.tui.table_app import PastonApp
from paston.tui.widgets import Chip, Dialog, Outcome
from paston.tui.words import Words


def test_a_whole_deal_is_played_by_keyboard_and_its_record_saved(tmp_path: Path) -> None:
    game = session(tmp_path, 7)
    app = PastonApp(game, delay=0.0, forced_delay=0.0)

    async def body(pilot: Pilot[Outcome]) -> None:
        await play_until(pilot, app, lambda: isinstance(app.screen, Dialog) and game.match.deals[0].is_over)
        assert str(app.screen.lines[0]) == "Deal 1 is over"  # type: ignore[attr-defined]

    run(app, body)
    saved = list(iter_file(game.out))
    assert len(saved) == 1 and isinstance(saved[0], Match)
    assert saved[0].deals[0].events == game.match.deals[0].events


def test_the_screen_never_shows_a_card_the_seat_may_not_see(tmp_path: Path) -> None:
    game = session(tmp_path, 11)
    app = PastonApp(game, delay=0.0, forced_delay=0.0)
    checked = 0

    def check() -> None:
        nonlocal checked
        view = game.view(0)
        if view.phase is Phase.OVER:
            return
        allowed = set(view.hand) | set(view.played) | {c for _, c in view.current_trick}
        allowed |= set(view.prikup or ()) | set(view.discard or ())
        for trick in view.completed_tricks:
            allowed |= {c for _, c in trick.plays}
        shown = {Card.parse(rank + suit) for rank, suit in CARD.findall(screen_text(app))}
        assert shown <= allowed, (
            f"shown but hidden from seat 0: {sorted(c.pretty() for c in shown - allowed)}"
        )
        checked += 1

    async def body(pilot: Pilot[Outcome]) -> None:
        await play_until(pilot, app, lambda: game.match.completed_deals >= 2, check)

    run(app, body)
    assert checked > 10


def test_a_click_on_a_card_plays_it(tmp_path: Path) -> None:
    game = session(tmp_path, 3)
    app = PastonApp(game, delay=0.0, forced_delay=0.0)

    async def body(pilot: Pilot[Outcome]) -> None:
        await play_until(pilot, app, lambda: app.plays_cards() and len(app.choices) > 1)
        before = len(game.match.deals[-1].events)
        legal = {a.cards[0] for a in app.choices}
        chip = next(c for c in app.query(Chip) if c.enabled and app.cards[c.index] in legal)
        card = app.cards[chip.index]
        assert await pilot.click(chip)
        await wait_idle(pilot, app)
        events = game.match.deals[-1].events
        assert len(events) > before and events[before][1].cards == (card,)

    run(app, body)


def test_arrows_and_enter_choose_too(tmp_path: Path) -> None:
    game = session(tmp_path, 5)
    app = PastonApp(game, delay=0.0, forced_delay=0.0)

    async def body(pilot: Pilot[Outcome]) -> None:
        await play_until(pilot, app, lambda: not app.busy and len(app.choices) > 1 and not app.plays_cards())
        await pilot.press("right")
        chosen = app.choices[app.selected]
        assert app.selected == 1
        before = len(game.match.deals[-1].events)
        await pilot.press("enter")
        await wait_idle(pilot, app)
        assert game.match.deals[-1].events[before][1] == chosen

    run(app, body)


def test_q_saves_an_unfinished_game(tmp_path: Path) -> None:
    game = session(tmp_path, 9)
    app = PastonApp(game, delay=0.0, forced_delay=0.0)

    async def body(pilot: Pilot[Outcome]) -> None:
        await play_until(
            pilot, app, lambda: game.view(0).phase is Phase.PLAY and len(game.view(0).completed_tricks) >= 2
        )
        await pilot.press("q")

    run(app, body)
    assert app.return_value == Outcome(finished=False)
    saved = list(iter_file(game.out))
    assert isinstance(saved[0], Match) and not saved[0].is_over
    assert saved[0].deals[-1].events == game.match.deals[-1].events


def test_people_sharing_a_keyboard_get_a_cover_between_turns(tmp_path: Path) -> None:
    game = session(tmp_path, 4, people=frozenset({0, 1}))
    app = PastonApp(game, delay=0.0, forced_delay=0.0)
    covers = 0

    async def body(pilot: Pilot[Outcome]) -> None:
        nonlocal covers
        for _ in range(200):
            await wait_idle(pilot, app)
            if game.match.completed_deals >= 1:
                return
            if isinstance(app.screen, Dialog) and "Pass the keyboard" in str(app.screen.lines[0]):
                covers += 1
                assert not list(app.screen_stack[0].query(Chip)), "the hand shows under the cover"
                seat = game.waiting_for
                assert seat is not None and seat != app.shown
                assert game.names[seat] in str(app.screen.lines[0])
                await pilot.press("enter")
                await wait_idle(pilot, app)
                assert app.shown == seat
                continue
            if isinstance(app.screen, Dialog):
                await pilot.press("enter")
                continue
            key = legal_key(app)
            if key is not None:
                await pilot.press(key)

    run(app, body)
    assert covers >= 2


def test_an_only_choice_is_played_for_the_person_after_a_pause(tmp_path: Path) -> None:
    game = session(tmp_path, 2)
    app = PastonApp(game, delay=0.0, forced_delay=0.15)

    async def body(pilot: Pilot[Outcome]) -> None:
        def one_choice() -> bool:
            return (
                game.waiting_for == 0
                and len(game.view(0).legal_actions) == 1
                and game.view(0).phase is Phase.PLAY
            )

        for _ in range(400):
            await pilot.pause(0.01)
            if one_choice():
                break
            if isinstance(app.screen, Dialog):
                await pilot.press("enter")
                continue
            key = legal_key(app)
            if key is not None and len(game.view(0).legal_actions) > 1:
                await pilot.press(key)
        assert one_choice()
        before = len(game.match.deals[-1].events)
        await pilot.pause(0.5)  # no key pressed
        assert len(game.match.deals[-1].events) > before

    run(app, body)


def test_help_explains_the_ladders_words(tmp_path: Path) -> None:
    app = PastonApp(session(tmp_path, 1), delay=0.0, forced_delay=0.0)

    async def body(pilot: Pilot[Outcome]) -> None:
        await pilot.press("question_mark")
        await pilot.pause(0.05)
        assert isinstance(app.screen, Dialog)
        text = "\n".join(str(line) for line in app.screen.lines)
        for word in ("paston", "glitch", "dineri", "gupa", "paston grkha", "× 4"):
            assert word in text
        await pilot.press("enter")
        await pilot.pause(0.05)
        assert not isinstance(app.screen, Dialog)

    run(app, body)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_table_fits_the_terminal(tmp_path: Path, size: tuple[int, int]) -> None:
    game = session(tmp_path, 6)
    app = PastonApp(game, delay=0.0, forced_delay=0.0)

    async def body(pilot: Pilot[Outcome]) -> None:
        await play_until(pilot, app, lambda: app.plays_cards() and len(app.choices) > 1)
        width, height = size
        for selector in ("#status", "#seat-a", "#seat-b", "#trick", "#score", "#you", "#choices"):
            region = app.query_one(selector).region
            assert region.x >= 0 and region.right <= width and region.bottom <= height - 1, (selector, region)
        chips = list(app.query(Chip))
        assert len(chips) == len(game.view(0).hand)
        assert all(
            c.region.right <= width and c.region.bottom <= height - 1 and c.region.height > 0 for c in chips
        )

    run(app, body, size)


def test_every_word_the_terminal_uses_is_in_every_language() -> None:
    """The keys the app and its drawing ask for exist in the web client's translations,
    in all five languages (no second copy of the strings)."""
    source = "".join(
        (Path(__file__).parents[1] / "src" / "paston" / "tui" / f).read_text()
        for f in ("table_app.py", "draw.py", "look.py", "words.py")
    )
    used = set(re.findall(r"""words\(\s*["']([\w-]+)["']""", source))
    used |= set(re.findall(r"[\"'](term_\w+)[\"']", source))
    used -= {"en", "hy", "ru", "es", "ja"}  # words("en"): the table of a language, not a key
    assert len(used) > 30, used
    for lang in ("en", "hy", "ru", "es", "ja"):
        missing = used - set(Words(lang).strings)
        assert not missing, (lang, missing)


def test_the_table_speaks_russian_with_its_ranks_and_words(tmp_path: Path) -> None:
    game = session(tmp_path, 8)
    app = PastonApp(game, delay=0.0, forced_delay=0.0, words=Words("ru"))

    async def body(pilot: Pilot[Outcome]) -> None:
        await play_until(pilot, app, lambda: app.plays_cards() and len(app.choices) > 1)
        text = screen_text(app)
        assert "Раздача" in text and "Очки" in text and "подсказка" in text
        hand = "".join(Words("ru").card(c) for c in game.view(0).hand)
        assert all(letter not in hand for letter in "AKQJ")  # Т К Д В
        await pilot.press("question_mark")
        await pilot.pause(0.05)
        assert isinstance(app.screen, Dialog)
        shown = "\n".join(str(line) for line in app.screen.lines)
        for word in ("пастон", "глитч", "динери", "гупа", "пастон грха", "вист"):
            assert word in shown

    run(app, body)


def test_undo_takes_back_the_persons_last_move_and_the_record_says_so(tmp_path: Path) -> None:
    game = session(tmp_path, 12)
    app = PastonApp(game, delay=0.0, forced_delay=0.0)

    async def body(pilot: Pilot[Outcome]) -> None:
        await play_until(
            pilot, app, lambda: app.plays_cards() and len(app.choices) > 1 and len(game.view(0).played) >= 6
        )
        before = list(game.match.deals[-1].events)
        hand_before = game.view(0).hand
        app.forced_delay = 30.0  # from now on no move is played for the person: undo comes first
        await pilot.press(legal_key(app) or "1")
        await wait_idle(pilot, app)
        assert len(game.match.deals[-1].events) > len(before)
        await pilot.press("u")
        await wait_idle(pilot, app)
        assert app.message == "Taken back: your last move.", app.message
        assert list(game.match.deals[-1].events) == before  # the person's move and the computers' after it
        assert game.view(0).hand == hand_before and game.waiting_for == 0

    run(app, body)
    saved = list(iter_file(game.out))
    assert isinstance(saved[0], Match) and saved[0].undo_allowed
    assert '"undo": true' in game.out.read_text()


def test_undo_is_refused_with_nothing_to_take_back_and_between_people(tmp_path: Path) -> None:
    alone = session(tmp_path, 13)
    assert alone.may_undo and not alone.undo()  # no move of the person yet
    shared = session(tmp_path, 13, people=frozenset({0, 1}))
    assert not shared.may_undo and not shared.match.undo_allowed and not shared.undo()


HOSTILE = (
    st.lists(
        st.sampled_from(
            ["[", "]", "/", "b", "bold red", "\x1b", "\x07", "\u202e", "\u2066", "é", "ա", "漢", " "]
        ),
        min_size=1,
        max_size=40,
    )
    .map("".join)
    .filter(lambda name: name.strip() != "")
)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=HOSTILE)
def test_any_name_is_shown_as_written_and_never_steers_the_terminal(tmp_path: Path, name: str) -> None:
    """Markup, control and bidi characters and long names: the table draws, the name
    shows literally (steering characters as �), and the record keeps it as given."""
    game = session(tmp_path, 14)
    game.match.seats = (name, game.match.seats[1], game.match.seats[2])
    app = PastonApp(game, delay=0.0, forced_delay=0.0)

    async def body(pilot: Pilot[Outcome]) -> None:
        await wait_idle(pilot, app)
        title = app.query_one("#you").border_title
        assert title is not None
        assert str(title).startswith((game.names[0], escape(game.names[0])))  # as written, not as markup
        assert app.export_screenshot()  # the whole screen renders
        assert not any(ch in game.names[0] for ch in "\x1b\x07\u202e\u2066")
        await pilot.press("q")

    run(app, body)
    saved = list(iter_file(game.out))
    assert isinstance(saved[0], Match) and saved[0].seats[0] == name
