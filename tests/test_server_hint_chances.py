"""The hint's chances (issue 23, item 4): each option's ``chance`` is the fraction of the
very worlds the hint sampled from the seat's view in which the option makes the contract
(the declarer, a bid, a discard, a trump) or beats it (a defender), ``None`` for pass and
surrender; equally good options share a ``group``.

- every chance is in [0, 1] and a whole number of the hint's worlds;
- the chances agree with the sampled outcomes: the same worlds, drawn again from the
  seed, solved here on their own (the pure-Python reference solver for late card play,
  the compiled solver for whist and trump);
- they read only the seat's view: another deal the seat cannot tell apart (hidden cards
  swapped) gives the same chances and groups;
- the groups follow :data:`paston.bots.explain.EQUAL_POINTS`;
- the chances cost no more worlds: the decisions are those of the player without them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from tests.bots_helpers import played_to, swap_cards

from paston.actions import PASS, SURRENDER, WHIST, Action, Kind
from paston.bots.explain import EQUAL_POINTS, Hint, Option, equal_groups, explain
from paston.bots.heuristic import HeuristicPlayer
from paston.bots.knowledge import uniform_worlds
from paston.bots.pimc import LEVELS, PimcPlayer
from paston.cards import JACK_OF_SPADES, SEVEN_OF_SPADES
from paston.deal import Deal, Phase
from paston.dealing import shuffled_deck
from paston.scoring import DECLARER_NEEDS
from paston.solver import Position, Solver, reference
from paston.views import DealView

LEVEL = 1  # fixed counts of worlds, no time budget: the worlds are the seed's alone
SEED = 11


def decisions(deck_seeds: range) -> Iterator[tuple[Deal, DealView]]:
    """Every decision of seeded deals played by heuristic players."""
    for deck_seed in deck_seeds:
        deal, _ = played_to(shuffled_deck(random.Random(deck_seed)), deck_seed % 3, 0, deck_seed)
        bots = [HeuristicPlayer(seed=deck_seed + s) for s in range(3)]
        while deal.to_move is not None and not deal.is_over:
            view = deal.view(deal.to_move)
            yield deal, view
            deal.apply(bots[deal.to_move].choose(view))


def check_chances(hint: Hint, view: DealView) -> None:
    defending = view.phase is Phase.DEFENCE or (view.phase is Phase.PLAY and view.seat != view.declarer)
    assert hint.goal == ("beat" if defending else "make")
    for o in hint.options:
        if o.action in (PASS, SURRENDER):
            assert o.chance is None
            continue
        assert o.chance is not None and 0.0 <= o.chance <= 1.0
        if hint.worlds:
            count = o.chance * hint.worlds
            assert abs(count - round(count)) < 1e-9, "a chance counts whole sampled worlds"
    data = hint.to_dict()
    options = data["options"]
    assert isinstance(options, list)
    assert [o["chance"] for o in options] == [o.chance for o in hint.options]
    assert [o["group"] for o in options] == list(hint.groups) and hint.groups[0] == 0


def test_every_chance_is_a_fraction_of_the_sampled_worlds() -> None:
    seen: set[Phase] = set()
    for _, view in decisions(range(12)):
        hint = explain(view, level=LEVEL, seed=SEED)
        check_chances(hint, view)
        seen.add(view.phase)
    assert seen == {Phase.AUCTION, Phase.DISCARD, Phase.TRUMP, Phase.DEFENCE, Phase.PLAY}


def worlds_of(view: DealView, n: int) -> list[tuple[int, int, int, int]]:
    """The worlds the hint with ``SEED`` sampled: its player draws them all at once from
    ``random.Random(SEED)`` (a fixed level, no time budget)."""
    return [tuple(w) for w in uniform_worlds(view, n, random.Random(SEED))]  # type: ignore[misc]


def card_outcomes(view: DealView) -> dict[Action, int]:
    """Per legal card: the sampled worlds in which the seat's side gets its aim, each
    solved by the reference solver (plain minimax; max^n for one of two defenders)."""
    assert view.seat is not None and view.declarer is not None and view.contract is not None
    me, declarer = view.seat, view.declarer
    active = (declarer, *view.defenders)
    counts = {a: 0 for a in view.legal_actions}
    for world in worlds_of(view, LEVELS[LEVEL].play):
        hands = tuple(world[s] if s in active else 0 for s in range(3))
        pos = Position(
            hands=(hands[0], hands[1], hands[2]),
            contract=view.contract,
            declarer=declarer,
            defenders=view.defenders,
            leader=view.current_trick[0][0] if view.current_trick else me,
            trick=tuple(c.index for _, c in view.current_trick),
            tricks=view.tricks,
        )
        if len(view.defenders) == 2 and me != declarer:
            made = {c: s[declarer] > 0 for c, s in reference.maxn_card_values(pos, view.rules).items()}
        else:
            made = {c: v >= DECLARER_NEEDS for c, v in reference.card_values(pos).items()}
        for a in view.legal_actions:
            counts[a] += made[a.cards[0].index] == (me == declarer)
    return counts


def test_card_chances_agree_with_the_worlds_solved_again() -> None:
    """Late in the play (the reference solver is quick there): the declarer's, a lone
    defender's and one of two defenders' chances are the counts of the same worlds."""
    kinds: set[str] = set()
    for deal, view in decisions(range(40)):
        if view.phase is not Phase.PLAY or deal.hand_mask(view.seat).bit_count() > 3:  # type: ignore[arg-type]
            continue
        kind = "declarer" if view.seat == view.declarer else f"defender of {len(view.defenders)}"
        if kind in kinds and len(kinds) < 3:
            continue
        hint = explain(view, level=LEVEL, seed=SEED)
        assert hint.worlds == LEVELS[LEVEL].play
        counts = card_outcomes(view)
        for o in hint.options:
            assert o.chance is not None
            assert round(o.chance * hint.worlds) == counts[o.action], (kind, str(o.action))
        kinds.add(kind)
        if len(kinds) == 3:
            break
    assert kinds == {"declarer", "defender of 1", "defender of 2"}


def test_whist_and_trump_chances_agree_with_the_worlds_solved_again() -> None:
    solver = Solver()
    checked: set[Phase] = set()
    for _, view in decisions(range(40)):
        if view.phase not in (Phase.DEFENCE, Phase.TRUMP) or view.phase in checked:
            continue
        assert view.seat is not None
        hint = explain(view, level=LEVEL, seed=SEED)
        me, rules = view.seat, view.rules
        if view.phase is Phase.DEFENCE:
            assert view.declarer is not None and view.contract is not None
            declarer, contract = view.declarer, view.contract
            partner_passed = len(view.whist_answers) == 1 and not view.whist_answers[0]
            beaten = 0
            for w in worlds_of(view, LEVELS[LEVEL].whist):
                if partner_passed:  # the seat defends alone
                    hands = tuple(w[s] if s in (declarer, me) else 0 for s in range(3))
                    pos = Position(
                        hands=(hands[0], hands[1], hands[2]),
                        contract=contract,
                        declarer=declarer,
                        defenders=(me,),
                        leader=declarer,
                    )
                    beaten += solver.tricks(pos) < DECLARER_NEEDS
                else:
                    pos = Position(
                        hands=(w[0], w[1], w[2]),
                        contract=contract,
                        declarer=declarer,
                        defenders=tuple(s for s in range(3) if s != declarer),
                        leader=declarer,
                    )
                    beaten += solver.maxn(pos, rules).tricks[declarer] < DECLARER_NEEDS
            whist = next(o for o in hint.options if o.action is WHIST)
            assert whist.chance is not None and round(whist.chance * hint.worlds) == beaten
        else:
            trumps = [o for o in hint.options if o.action.kind is Kind.TRUMP]
            worlds = worlds_of(view, LEVELS[LEVEL].discard)
            for o in trumps:
                assert o.action.contract is not None
                made = 0
                for w in worlds:
                    pos = Position(
                        hands=(w[0], w[1], w[2]),
                        contract=o.action.contract,
                        declarer=me,
                        defenders=tuple(s for s in range(3) if s != me),
                        leader=me,
                    )
                    made += solver.tricks(pos) >= DECLARER_NEEDS
                assert o.chance is not None and round(o.chance * hint.worlds) == made, str(o.action)
        checked.add(view.phase)
        if len(checked) == 2:
            break
    assert checked == {Phase.DEFENCE, Phase.TRUMP}


def twin_of(deck: list[int], actions: list[Action], x: int, y: int) -> Deal | None:
    """The deal with cards ``x`` and ``y`` swapped in the deck and the actions, if that is
    another deal (the two were in different hands, or one in the prikup)."""
    other = list(deck)
    i, j = other.index(x), other.index(y)
    other[i], other[j] = other[j], other[i]
    try:
        twin = Deal(other, dealer=0)
    except ValueError:  # R1.2: the swap put 7♠ at the bottom of the deck
        return None
    if twin.redeal is not None:
        return None
    for action in actions:
        twin.apply(swap_cards(action, x, y))
    original = Deal(deck, dealer=0)
    for action in actions:
        original.apply(action)
    if all(twin.hand_mask(s) == original.hand_mask(s) for s in range(3)):
        return None  # both in one hand: the same deal
    return twin


@pytest.mark.parametrize("deck_seed", [1, 4, 9])
def test_chances_read_only_the_seats_view(deck_seed: int) -> None:
    """Two hidden cards of one suit change places (in the deck and in the actions that
    name them): the seat sees the same view, and its hint has the same chances and groups."""
    deck = shuffled_deck(random.Random(deck_seed))
    checked = 0
    for steps in (0, 3, 12, 20, 26):
        deal, actions = played_to(deck, 0, steps, deck_seed)
        if deal.to_move is None or deal.is_over:
            continue
        seat = deal.to_move
        view = deal.view(seat)
        hidden = [c for c in range(32) if not view.known_cards().mask >> c & 1]
        pairs = [
            (x, y)
            for x in hidden
            for y in hidden
            if x < y and x >> 3 == y >> 3 and not {x, y} & {JACK_OF_SPADES, SEVEN_OF_SPADES}
        ]
        if not pairs:
            continue
        twin = next((t for t in (twin_of(deck, actions, x, y) for x, y in pairs) if t is not None), None)
        if twin is None:
            continue
        assert twin.view(seat) == view and twin.hand_mask(seat) == deal.hand_mask(seat)
        first = explain(view, level=LEVEL, seed=SEED).to_dict()
        second = explain(twin.view(seat), level=LEVEL, seed=SEED).to_dict()
        assert first == second
        checked += 1
    assert checked >= 2


def test_equal_options_share_a_group_within_the_tolerance() -> None:
    k, q, seven, ace = (Action.parse(f"play {c}") for c in ("KH", "QH", "7H", "AH"))
    same = (
        Option(k, -40.0, 0.0, 0.0),
        Option(q, -40.0, 0.0, 0.0),
        Option(seven, -40.0 + EQUAL_POINTS / 2, 0.0, 0.0),
    )
    assert equal_groups(same) == (0, 0, 0)
    apart = (
        Option(k, 1.0, 3.0, 0.5),
        Option(q, 1.0 - 2 * EQUAL_POINTS, 3.0, 0.5),
        Option(ace, -3.0, 2.0, 0.25),
    )
    assert equal_groups(apart) == (0, 1, 2)
    # as good in points, yet not as likely to make the contract: not equal
    assert equal_groups((Option(k, 0.0, 3.0, 0.5), Option(q, 0.0, 3.0, 0.75))) == (0, 1)
    # a chain does not drift: each is compared with its group's first
    drift = tuple(Option(a, 5.0 - i * 0.04, 1.0, 0.5) for i, a in enumerate((k, q, seven)))
    assert equal_groups(drift) == (0, 0, 1)
    assert equal_groups((Option(PASS, 0.0, None), Option(WHIST, 0.0, None, 0.5))) == (0, 1)


def test_the_chances_change_no_decision_and_sample_no_more_worlds() -> None:
    """The chances are counted on the worlds the valuation samples anyway: the choice,
    the order, the scores and the count of worlds are those of the player's own options."""
    for _, view in decisions(range(6)):
        scored = PimcPlayer(seed=SEED, level=LEVEL).options(view)
        hint = explain(view, level=LEVEL, seed=SEED)
        assert hint.worlds == scored.worlds
        assert [(o.action, o.score, o.tricks) for o in hint.options] == [
            (o.action, o.score, o.tricks) for o in scored.options if o.action in view.legal_actions
        ]
