"""The lobby page in the browser: the create-table form built from GET /api/meta (the
seat choices, the presets, a computer's level) and the list of tables, a page at a time,
hearing of changes (Playwright with Debian's chromium; see ``browser_helpers.py``)."""

from __future__ import annotations

import re
from pathlib import Path

from browser_helpers import (
    SHOTS,
    LiveServer,
    Opener,
    Page,
    browser,
    check_png,
    open_page,
    server,
)
from paston.bots.base import PLAYERS, player_choices
from paston.rules import PRESETS, Rules
from paston.server.web.limits import Limits

__all__ = ["browser", "open_page", "server"]  # the fixtures, from browser_helpers


# --- the create-table form, from GET /api/meta ----------------------------------------------------
def options_of(page: Page, selector: str) -> list[dict[str, str]]:
    return list(
        page.eval_on_selector_all(
            f"{selector} option", "es => es.map(e => ({value: e.value, title: e.title, text: e.innerText}))"
        )
    )


def test_the_seat_choices_are_the_registry_s(server: LiveServer, open_page: Opener) -> None:
    meta = server.get("/api/meta")
    assert meta["players"] == [p.to_dict() for p in PLAYERS]
    assert meta["player_choices"] == list(player_choices())
    assert meta["rules"]["defaults"] == Rules().to_dict()
    assert meta["rules"]["presets"] == {name: rules.to_dict() for name, rules in PRESETS.items()}
    page = open_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#seat2 option", state="attached")
    leveled = {p["name"]: p for p in meta["players"] if p["levels"]}
    # every choice once: a leveled player's bare name is its default level, listed as such
    expected = ["human", *(c for c in meta["player_choices"] if c not in leveled)]
    descriptions = {p["name"]: p["description"] for p in meta["players"]}
    for seat in range(3):
        options = options_of(page, f"#seat{seat}")
        assert [o["value"] for o in options] == expected
        for o in options[1:]:
            assert o["title"] == descriptions[o["value"].split(":")[0]]
    assert all(f"{name}:{p['default_level']}" in expected for name, p in leveled.items())
    texts = {o["value"]: o["text"] for o in options_of(page, "#seat1")}
    assert texts["pimc:4"] == "Computer (strong, level 4)" and texts["heuristic"] == "Computer (simple)"
    strongest = meta["players"][-1]
    default = f"{strongest['name']}:{strongest['default_level']}"
    assert [page.input_value(f"#seat{i}") for i in range(3)] == ["human", default, default]
    # the presets, the defaults' one chosen; a player with no translation is shown by its name
    assert [o["value"] for o in options_of(page, "#preset")] == ["", *meta["rules"]["presets"]]
    assert page.input_value("#preset") == "spanish"
    labels = page.evaluate(
        """async () => { const page = document.querySelector('script[type=module]').src;
                         const m = await import(new URL('players.js', page));
                         return [m.botLabel('pimc'), m.botLabel('pimc:2'), m.botLabel('newbot'),
                                 m.botLabel('newbot:2'), m.botLabel('')]; }"""
    )
    assert labels == ["strong, level 3", "strong, level 2", "newbot", "newbot 2", ""]
    page.select_option("[data-testid=lang]", "ru")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    texts = {o["value"]: o["text"] for o in options_of(page, "#seat1")}
    assert texts["pimc:5"] == "Компьютер (сильный, уровень 5)"
    assert page.input_value("#seat1") == default  # the choices survive a change of language


def test_choosing_a_preset_sets_the_switches_and_the_target(server: LiveServer, open_page: Opener) -> None:
    presets = server.get("/api/meta")["rules"]["presets"]
    page = open_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#preset")

    def chosen() -> dict[str, object]:
        got: dict[str, object] = {
            key: page.input_value(f"#rule-{key}") for key in Rules().to_dict() if key != "target"
        }
        got["surrender_bonus"] = int(str(got["surrender_bonus"]))
        got["target"] = int(page.input_value("#target"))
        return got

    assert chosen() == presets["spanish"]
    for name in ("preference", "short", "flat", "no-surrender-bonus"):
        page.select_option("#preset", name)
        page.wait_for_function("n => document.getElementById('preset').value === n", arg=name)
        assert chosen() == presets[name], name
    # a switch changed by hand: the rules are no preset, until they are one again
    page.click("details.rules summary")
    page.select_option("#rule-surrender_bonus", "2")
    assert page.input_value("#preset") == "spanish"
    page.select_option("#rule-second_dealer", "rotate")
    assert page.input_value("#preset") == ""
    page.select_option("#rule-all_pass_declarer", "first-bidder")
    assert page.input_value("#preset") == "preference"
    page.fill("#target", "61")
    assert page.input_value("#preset") == ""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lobby-desktop.png"), full_page=True)
    check_png(SHOTS / "lobby-desktop.png")


def test_a_table_made_with_a_preset_and_a_level_has_them(server: LiveServer, open_page: Opener) -> None:
    presets = server.get("/api/meta")["rules"]["presets"]
    page = open_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#preset")
    page.select_option("#preset", "no-surrender-bonus")
    page.select_option("#seat1", "pimc:1")
    page.select_option("#seat2", "heuristic")
    page.fill("[data-testid=my-name]", "Ani")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    info = server.get(f"/api/tables/{page.url.rsplit('/', 1)[1]}")
    assert info["rules"] == presets["no-surrender-bonus"]
    assert [(s["kind"], s["bot"]) for s in info["seats"]] == [
        ("human", None),
        ("bot", "pimc:1"),
        ("bot", "heuristic"),
    ]
    page.wait_for_selector("[data-seat='1'][data-status=bot]")
    assert page.inner_text("[data-seat='1'] .presence") == "computer · strong, level 1"
    assert page.inner_text("[data-seat='2'] .presence") == "computer · simple"


def test_the_lobby_shows_a_page_of_tables_and_hears_of_changes(tmp_path: Path, open_page: Opener) -> None:
    live = LiveServer(f"sqlite:///{tmp_path / 'lobby.db'}", Limits(create_burst=100, tables_per_client=100))
    live.start()
    try:
        made = [
            live.post("/api/tables", {"name": f"Lobby {i}", "seats": [{"kind": "human"}] * 3})["id"]
            for i in range(22)
        ]
        page = open_page()
        page.goto(live.url + "/")
        rows = "#lobby-lists ul.table-list >> nth=0 >> li"
        page.wait_for_function(
            "() => document.querySelectorAll('#lobby-lists ul.table-list li').length === 20"
        )
        assert page.locator(rows).first.inner_text().startswith("Lobby 21")
        pager = page.inner_text("[data-testid=pager]")
        assert "1–20" in pager and "22" in pager
        page.click("[data-testid=older]")
        page.wait_for_function(
            "() => document.querySelectorAll('#lobby-lists ul.table-list li').length === 2"
        )
        page.click("[data-testid=newer]")
        page.wait_for_function(
            "() => document.querySelectorAll('#lobby-lists ul.table-list li').length === 20"
        )
        page.evaluate("window.stillTheSamePage = true")
        # pushed, not polled: a new table and a seat taken show up without a reload
        live.post("/api/tables", {"name": "Pushed", "seats": [{"kind": "human"}] * 3})
        page.wait_for_function(
            "() => document.querySelector('#lobby-lists ul.table-list li').textContent.startsWith('Pushed')"
        )
        live.post(f"/api/tables/{made[20]}/seats/0", {"name": "Zed"})
        page.wait_for_function(
            "() => [...document.querySelectorAll('#lobby-lists li')]"
            ".some(li => li.textContent.includes('Zed'))"
        )
        assert page.evaluate("window.stillTheSamePage") is True
        assert "23" in page.inner_text("[data-testid=pager]")
    finally:
        live.stop()
