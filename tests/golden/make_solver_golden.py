"""Write tests/golden/solver_deals.json: seeded full deals solved once by the reference.

Run it by hand from the repository root (it takes several minutes: the pure-Python
reference is slow on full ten-card three-hand deals)::

    .venv/bin/python tests/golden/make_solver_golden.py [WORKERS]

(``WORKERS`` processes, default: one per CPU; the output does not depend on it), then
review the diff and commit the JSON. ``tests/test_solver_golden.py`` checks that
the compiled solver reproduces every stored value (fast). Regenerate only when the
rules of play or the reference's documented tie-breaks change on purpose; the output
is deterministic (same seeds, same file).

The deals: 24 full ten-card deals, alternating three hands (two defenders) and two
hands (a lone defender, the passer's hand out of play, R5.2), cycling through the
five contracts. Each is dealt from a seeded shuffle (10 cards each and 2 to the
prikup); the declarer is the seat longest in the trump suit, takes the prikup and
discards its two lowest side cards (so that the declarer has something to play
for), and leads the first trick (R6.1). For each deal the reference gives
``declarer_tricks`` and ``card_values`` of the opening lead; for the two-hand deals
also max^n (``maxn_scores`` / ``maxn_card_values``, both lone-defender tables).

Then 12 positions from the middle of the play of further deals (3-7 cards left, some
with cards already in the trick), reached by seeded random legal play, with the same
values and max^n for both tables.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from paston.cards import ALL_CARDS, CardSet
from paston.contracts import Contract
from paston.rules import Rules
from paston.solver import Position, reference

OUT = Path(__file__).with_name("solver_deals.json")
FULL_DEALS = 24
MID_PLAY = 12
TABLES = {"graded": Rules(), "flat": Rules(lone_defender="flat")}


def text(mask: int) -> str:
    return str(CardSet(mask))


def codes(cards: dict[int, object]) -> dict[str, object]:
    return {str(ALL_CARDS[c]): v for c, v in sorted(cards.items())}


def deal_position(rng: random.Random, contract: Contract, three_hand: bool) -> Position:
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [set(deck[0:10]), set(deck[10:20]), set(deck[20:30])]
    prikup = deck[30:32]
    trump = contract.trump_suit
    length = [sum(1 for c in h if c >> 3 == trump) for h in hands]
    declarer = max(range(3), key=lambda s: (length[s], rng.random()))
    hand = hands[declarer] | set(prikup)
    side = sorted((c for c in hand if c >> 3 != trump), key=lambda c: (c & 7, c))
    trumps = sorted(c for c in hand if c >> 3 == trump)
    for c in (side + trumps)[:2]:
        hand.remove(c)
    assert len(hand) == 10
    hands[declarer] = hand
    others = [s for s in range(3) if s != declarer]
    defenders = tuple(others) if three_hand else (rng.choice(others),)
    masks = [sum(1 << c for c in h) if s in (declarer, *defenders) else 0 for s, h in enumerate(hands)]
    return Position(
        hands=(masks[0], masks[1], masks[2]),
        contract=contract,
        declarer=declarer,
        defenders=defenders,
        leader=declarer,
    )


def winner(pos: Position, trick: tuple[int, ...]) -> int:
    seat, best, best_seat = pos.leader, trick[0], pos.leader
    for c in trick[1:]:
        seat = pos.next_seat(seat)
        if (c >> 3 == best >> 3 and c > best) or (c >> 3 == pos.trump and best >> 3 != pos.trump):
            best, best_seat = c, seat
    return best_seat


def play_random(rng: random.Random, pos: Position, cards: int) -> Position:
    """Play random legal cards until ``cards`` cards are left in the first hand to play
    and a random number of cards (0 to one less than the active seats) is in the trick."""
    in_trick = rng.randrange(len(pos.active))
    while pos.cards_left > cards or len(pos.trick) != in_trick:
        c = rng.choice(pos.legal_cards())
        hands = list(pos.hands)
        hands[pos.to_move] &= ~(1 << c)
        trick = (*pos.trick, c)
        leader, tricks = pos.leader, list(pos.tricks)
        if len(trick) == len(pos.active):
            leader = winner(pos, trick)
            tricks[leader] += 1
            trick = ()
        pos = Position(
            hands=(hands[0], hands[1], hands[2]),
            contract=pos.contract,
            declarer=pos.declarer,
            defenders=pos.defenders,
            leader=leader,
            trick=trick,
            tricks=(tricks[0], tricks[1], tricks[2]),
        )
    return pos


def entry(name: str, pos: Position, *, maxn: bool) -> dict[str, object]:
    start = time.perf_counter()
    out: dict[str, object] = {
        "name": name,
        "hands": [text(h) for h in pos.hands],
        "contract": pos.contract.name_in_record,
        "declarer": pos.declarer,
        "defenders": list(pos.defenders),
        "leader": pos.leader,
        "trick": " ".join(str(ALL_CARDS[c]) for c in pos.trick),
        "tricks": list(pos.tricks),
        "value": reference.declarer_tricks(pos),
        "card_values": codes(reference.card_values(pos)),
    }
    if maxn:
        out["maxn"] = {
            table: {
                "scores": list(reference.maxn_scores(pos, rules)),
                "card_scores": {c: list(v) for c, v in codes(reference.maxn_card_values(pos, rules)).items()},
            }
            for table, rules in TABLES.items()
        }
    print(f"{name}: value {out['value']} ({time.perf_counter() - start:.1f} s)", file=sys.stderr, flush=True)
    return out


def _solve(job: tuple[str, Position, bool]) -> dict[str, object]:
    name, pos, maxn = job
    return entry(name, pos, maxn=maxn)


def jobs() -> list[tuple[str, Position, bool]]:
    out = []
    contracts = list(Contract)
    for i in range(FULL_DEALS):
        rng = random.Random(f"solver-golden:{i}")
        three = i % 2 == 0
        contract = contracts[(i // 2) % 5] if three else contracts[(i // 2 + 2) % 5]
        pos = deal_position(rng, contract, three)
        out.append((f"full-{i:02d}-{'three' if three else 'two'}-{contract}", pos, not three))
    for i in range(MID_PLAY):
        rng = random.Random(f"solver-golden-mid:{i}")
        three = i % 2 == 0
        contract = contracts[i % 5]
        pos = play_random(rng, deal_position(rng, contract, three), cards=3 + i % 5)
        mode = "three" if three else "two"
        out.append((f"mid-{i:02d}-{mode}-{contract}-{pos.cards_left}cards-trick{len(pos.trick)}", pos, True))
    return out


def main() -> None:
    workers = int(sys.argv[1]) if len(sys.argv) > 1 else (os.cpu_count() or 1)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        entries = list(pool.map(_solve, jobs()))
    doc = {
        "about": "Full deals and mid-play positions solved by paston.solver.reference; "
        "written by tests/golden/make_solver_golden.py, checked by tests/test_solver_golden.py.",
        "positions": entries,
    }
    OUT.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(entries)} positions to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
