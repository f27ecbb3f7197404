"""Golden playthroughs: seeded games printed step by step, compared with tests/golden/*.txt.

Each file shows, before every action, the public view in full and, for each seat, every
field of that seat's view that differs from the public view (its hand, the prikup and
discard for the declarer, its legal actions, the discard in its history); then the
action taken. A finished deal is shown once more, final, with its result. The game
ends with the record of the whole game (RECORD.md), one JSON line.

Regenerate after an intended change with ``PASTON_REGOLD=1 pytest tests/test_golden.py``
and review the diff.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers import play_out, weighted_choice
from paston import record
from paston.cards import ALL_CARDS, CardSet
from paston.deal import Deal
from paston.match import Match
from paston.rules import Rules
from paston.views import DealView

GOLDEN_DIR = Path(__file__).parent / "golden"


@dataclass(frozen=True)
class Game:
    name: str
    rules: Rules
    first_dealer: int
    deck_seed: int
    bot_seed: int
    max_deals: int = 4
    what: str = ""


GAMES = (
    Game(
        "spanish_to_30",
        Rules(target=30),
        first_dealer=0,
        deck_seed=8,
        bot_seed=5,
        what="default rules, to 30: all pass in the first deal (J♠ declares), a lone defender, two defenders",
    ),
    Game(
        "variants_flat_rotate_first_bidder",
        Rules(
            lone_defender="flat",
            surrender_bonus=0,
            all_pass_declarer="first-bidder",
            second_dealer="rotate",
            target=30,
        ),
        first_dealer=2,
        deck_seed=173,
        bot_seed=7,
        max_deals=5,
        what="every variant switched: all pass in a later deal (the first bidder declares), best spades",
    ),
    Game(
        "redeal_jack_seven_prikup",
        Rules(target=20),
        first_dealer=1,
        deck_seed=333,
        bot_seed=0,
        what="the first deal is redealt, J♠ and 7♠ in the prikup (R1.5); a lone defender",
    ),
    Game(
        "redeal_spade_sequence_best_spades",
        Rules(target=20, lone_defender="flat"),
        first_dealer=1,
        deck_seed=1178,
        bot_seed=9,
        what="a spade-sequence redeal (R1.4); best spades against a lone defender",
    ),
)


# The golden games' player is helpers.weighted_choice with this bid probability: random,
# but bids, defends and plays more than it gives up. Changing either changes every file.
GOLDEN_BID_PROB = 0.6


# --- rendering ------------------------------------------------------------------------
def _cards(cs: CardSet | None) -> str:
    if cs is None:
        return "?"
    return " ".join(str(c) for c in cs) or "-"


def _opt(x: object) -> str:
    return "-" if x is None else str(x)


def view_tokens(v: DealView) -> dict[str, str]:
    """Every field of a view as text (the constant ones too)."""
    last = v.completed_tricks[-1] if v.completed_tricks else None
    return {
        "rules": v.rules.describe(),
        "dealer": str(v.dealer),
        "first_deal": "yes" if v.first_deal else "no",
        "first_bidder": _opt(v.first_bidder),
        "redeal": _opt(v.redeal),
        "phase": v.phase.name,
        "to_move": _opt(v.to_move),
        "hand": _cards(v.hand),
        "sizes": "/".join(str(n) for n in v.hand_sizes),
        "prikup": _cards(v.prikup),
        "discard": _cards(v.discard),
        "high": _opt(v.high_bid),
        "in": ",".join(str(s) for s in range(3) if v.in_auction[s]) or "-",
        "declarer": _opt(v.declarer),
        "contract": _opt(v.contract),
        "whist": ",".join("whist" if w else "pass" for w in v.whist_answers) or "-",
        "defenders": ",".join(str(s) for s in v.defenders) or "-",
        "trick": " ".join(f"{s}:{c}" for s, c in v.current_trick) or "-",
        "done": str(len(v.completed_tricks)),
        "last_trick": "-"
        if last is None
        else f"{' '.join(f'{s}:{c}' for s, c in last.plays)} won by {last.winner}",
        "tricks": "/".join(str(n) for n in v.tricks),
        "played": _cards(v.played),
        "history": f"{len(v.history)}" + (f" last [{v.history[-1]}]" if v.history else ""),
        "legal": "|".join(str(a) for a in v.legal_actions) or "-",
        "totals": "/".join(str(n) for n in v.totals),
        "result": "-"
        if v.result is None
        else (
            f"{v.result.outcome} declarer={v.result.declarer} contract={_opt(v.result.contract)} "
            f"defenders={list(v.result.defenders)} tricks={list(v.result.tricks)} "
            f"scores={list(v.result.scores)}"
        ),
    }


_CONSTANT = ("rules", "dealer", "first_deal", "first_bidder", "redeal")


def render_views(deal: Deal, totals: tuple[int, int, int]) -> list[str]:
    public = view_tokens(deal.public_view(totals))
    lines = ["   public | " + " ".join(f"{k}={v}" for k, v in public.items() if k not in _CONSTANT)]
    for seat in range(3):
        mine = view_tokens(deal.view(seat, totals))
        diff = [f"{k}={v}" for k, v in mine.items() if v != public[k]]
        lines.append(f"   seat {seat} | " + (" ".join(diff) or "(same as public)"))
    return lines


def deal_header(i: int, deal: Deal, match: Match) -> list[str]:
    t = view_tokens(deal.public_view(match.totals))
    return [
        "",
        f"=== deal {i}: dealer {t['dealer']}, first deal: {t['first_deal']}, "
        f"first bidder {t['first_bidder']}, redeal {t['redeal']}",
        "    deck (the full state, not a view): " + " ".join(str(ALL_CARDS[c]) for c in deal.deck),
    ]


def playthrough(game: Game) -> str:
    match = Match(
        first_dealer=game.first_dealer,
        rng=random.Random(game.deck_seed),
        rules=game.rules,
        seats=("North", "East", "West"),
    )
    rng = random.Random(game.bot_seed)
    out = [
        f"# paston golden playthrough: {game.name}",
        f"# {game.what}",
        f"# rules: {game.rules.describe()}",
        f"# first dealer {game.first_dealer}, deck seed {game.deck_seed}, player seed {game.bot_seed}, "
        f"at most {game.max_deals} deals",
    ]
    shown = 0
    ended: set[int] = set()

    def end_block(i: int, deal: Deal) -> None:
        ended.add(i)
        out.append(f"--- end of deal {i} (final views)")
        out.extend(render_views(deal, match.totals))

    step = 0
    while True:
        while shown < len(match.deals):
            d = match.deals[shown]
            out.extend(deal_header(shown, d, match))
            if d.is_over and shown not in ended:
                end_block(shown, d)
            shown += 1
        if match.is_over or match.completed_deals >= game.max_deals:
            break
        deal = match.deal
        assert deal is not None and deal.to_move is not None
        seat = deal.to_move
        index = len(match.deals) - 1
        out.append(f"-- step {step}: {deal.phase.name}, seat {seat} to move")
        out.extend(render_views(deal, match.totals))
        action = weighted_choice(rng, deal, bid_prob=GOLDEN_BID_PROB)
        match.apply(action, seat)
        out.append(f"   >> seat {seat}: {action}")
        step += 1
        if deal.is_over:
            end_block(index, deal)
    out.append("")
    out.append(
        f"=== game: {match.completed_deals} deals, totals {'/'.join(map(str, match.totals))}, "
        f"winners {list(match.winners)}, over: {'yes' if match.is_over else 'no'}"
    )
    out.append("record: " + record.dumps(match))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_golden_playthrough(game: Game) -> None:
    text = playthrough(game)
    path = GOLDEN_DIR / f"{game.name}.txt"
    if os.environ.get("PASTON_REGOLD") == "1":
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing; run with PASTON_REGOLD=1 to create it"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        old, new = expected.splitlines(), text.splitlines()
        first = next(
            (i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new))
        )
        pytest.fail(
            f"{path.name} differs from line {first + 1}:\n"
            f"  expected: {old[first] if first < len(old) else '<end of file>'}\n"
            f"  got:      {new[first] if first < len(new) else '<end of file>'}\n"
            "If the change is intended, regenerate with PASTON_REGOLD=1 and review the diff."
        )


def _situations(game: Game) -> set[str]:
    """What happened in a golden game, replayed without printing."""
    match = Match(first_dealer=game.first_dealer, rng=random.Random(game.deck_seed), rules=game.rules)
    play_out(match, random.Random(game.bot_seed), max_deals=game.max_deals, bid_prob=GOLDEN_BID_PROB)
    seen = {"over"} if match.is_over else set()
    for i, deal in enumerate(match.deals):
        if deal.redeal is not None:
            seen.add(deal.redeal)
        r = deal.result
        if r is None:
            continue
        if r.outcome == "played":
            seen.add("lone" if len(r.defenders) == 1 else "two defenders")
        if r.contract is not None and r.contract.name_in_record == "best-spades":
            seen.add("best-spades " + r.outcome)
        if deal.high_bid is None:
            seen.add("all pass, first deal" if i == 0 else "all pass, later deal")
    return seen


def test_golden_games_show_what_they_promise() -> None:
    """The chosen seeds still produce the situations the files are meant to show."""
    s = {g.name: _situations(g) for g in GAMES}
    assert {"over", "lone", "two defenders", "all pass, first deal"} <= s["spanish_to_30"]
    assert {"over", "all pass, later deal", "best-spades played"} <= s["variants_flat_rotate_first_bidder"]
    assert {"over", "jack-seven-prikup", "lone"} <= s["redeal_jack_seven_prikup"]
    assert {"over", "spade-sequence", "best-spades played", "lone"} <= s["redeal_spade_sequence_best_spades"]
