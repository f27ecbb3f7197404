"""``paston play``: play a whole game in the terminal against two computer players."""

from __future__ import annotations

import random
import secrets
from datetime import datetime
from pathlib import Path

import typer

from paston.actions import Action, Kind
from paston.bots import PLAYER_NAMES, Player, make_player
from paston.bots.base import parse_player_name
from paston.cards import Card
from paston.cli.common import fail, out_console, parse_rules
from paston.contracts import Contract
from paston.deal import Phase
from paston.errors import IllegalActionError, ParseError, PastonError
from paston.match import Match
from paston.record import dumps
from paston.text import REDEAL_TEXT, result_lines, signed
from paston.views import DealView

HELP_TEXT = (
    "Type the number of a choice, or the action itself: 'pass', 'bid clubs' (or just 'clubs'),\n"
    "'whist', 'surrender', a card such as 'AH' or '10♥', or two cards to discard ('7D 8D').\n"
    "Other commands: 'hand' shows your cards, 'last' the last trick, 'score' the totals,\n"
    "'help' this text, 'quit' saves the game and stops."
)


class _Quit(Exception):
    pass


class TerminalGame:
    """One person against two computer players; the person sees only their own view."""

    def __init__(self, match: Match, human: int, bots: dict[int, Player], out: Path) -> None:
        self.match = match
        self.human = human
        self.bots = bots
        self.out = out
        self.console = out_console()
        self.names = match.seats
        self._shown_tricks = 0

    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False)

    def save(self) -> None:
        tmp = self.out.with_name(self.out.name + ".tmp")
        tmp.write_text(dumps(self.match, indent=2) + "\n", encoding="utf-8")
        tmp.replace(self.out)

    # --- the loop ---------------------------------------------------------------------
    def run(self) -> None:
        match = self.match
        deals_seen = 0
        try:
            while not match.is_over:
                while deals_seen < len(match.deals):
                    deal = match.deals[deals_seen]
                    deals_seen += 1
                    self._announce(deals_seen - 1)
                    if deal.is_over and deal is not match.deals[-1]:
                        self._finish_deal(deals_seen - 1)
                seat = match.to_move
                assert seat is not None
                if seat == self.human:
                    action = self._ask(match.view(seat))
                else:
                    action = self.bots[seat].choose(match.view(seat))
                deal = match.deals[-1]
                index = len(match.deals) - 1
                match.apply(action, seat)
                self._report(seat, action)
                self._show_new_tricks(deal.view(self.human))
                if deal.is_over:
                    self._finish_deal(index)
                    deals_seen = max(deals_seen, index + 1)
        except _Quit:
            self.save()
            self.say(f"Game saved (unfinished) to {self.out}")
            return
        except KeyboardInterrupt:
            self.save()
            self.say(f"\nInterrupted: game saved (unfinished) to {self.out}")
            raise typer.Exit(130) from None
        self.save()
        w = match.winners
        who = " and ".join(self.names[s] for s in w)
        self.say(
            f"Game over: {who} {'share the victory' if len(w) > 1 else 'wins'}. "
            f"Final totals: " + ", ".join(f"{self.names[s]} {match.totals[s]}" for s in range(3))
        )
        self.say(f"Game record saved to {self.out}")

    def _announce(self, index: int) -> None:
        deal = self.match.deals[index]
        self._shown_tricks = 0
        self.say("")
        self.say(f"=== Deal {self.match.completed_deals + 1}: {self.names[deal.dealer]} deals ===")
        if deal.redeal in ("spade-sequence", "jack-seven-prikup"):
            self.say(REDEAL_TEXT[deal.redeal] + " — the same dealer deals again.")
            return
        view = deal.view(self.human, self.match.totals)
        self.say(f"Your hand: {view.hand.pretty()}")
        assert deal.first_bidder is not None
        self.say(f"{self.names[deal.first_bidder]} bids first.")

    def _report(self, seat: int, action: Action) -> None:
        if seat == self.human:
            return
        if action.kind is Kind.DISCARD:
            self.say(f"{self.names[seat]} takes the prikup and discards two cards.")
        elif action.kind is not Kind.PLAY:
            self.say(f"{self.names[seat]}: {action.pretty()}")

    def _show_new_tricks(self, view: DealView) -> None:
        tricks = view.completed_tricks
        while self._shown_tricks < len(tricks):
            t = tricks[self._shown_tricks]
            self._shown_tricks += 1
            plays = ", ".join(f"{self.names[s]} {c.pretty()}" for s, c in t.plays)
            self.say(
                f"Trick {self._shown_tricks}: {plays} → {self.names[t.winner]}   "
                f"(tricks: " + ", ".join(f"{self.names[s]} {view.tricks[s]}" for s in range(3)) + ")"
            )

    def _finish_deal(self, index: int) -> None:
        deal = self.match.deals[index]
        if deal.redeal is not None:
            if deal.redeal == "no-jack-no-seven":
                self.say(REDEAL_TEXT[deal.redeal] + " — the same dealer deals again.")
            return
        assert deal.result is not None
        for line in result_lines(deal.result, self.names):
            self.say(line)
        totals = self.match.deal_totals[index]
        assert totals is not None
        self.say(
            "Totals: "
            + ", ".join(f"{self.names[s]} {totals[s]}" for s in range(3))
            + f"   (game to {self.match.rules.target})"
        )
        self.save()

    # --- asking the person --------------------------------------------------------------
    def _read(self, prompt: str) -> str:
        try:
            line = input(prompt)
        except EOFError:
            raise _Quit() from None
        return line.strip()

    def _describe(self, view: DealView) -> None:
        phase = view.phase
        if phase is Phase.AUCTION:
            high = view.high_bid.pretty() if view.high_bid is not None else "none yet"
            self.say(f"Auction — highest bid: {high}.  Your hand: {view.hand.pretty()}")
        elif phase is Phase.DISCARD:
            assert view.prikup is not None
            self.say(f"You declare. The prikup: {view.prikup.pretty()}")
            self.say(f"Your 12 cards: {view.hand.pretty()}")
        elif phase is Phase.TRUMP:
            self.say(f"Name trump or surrender.  Your hand: {view.hand.pretty()}")
        elif phase is Phase.DEFENCE:
            assert view.declarer is not None and view.contract is not None
            self.say(
                f"{self.names[view.declarer]} plays {view.contract.pretty()}. Whist (defend) or pass? "
                f"Your hand: {view.hand.pretty()}"
            )
        elif phase is Phase.PLAY:
            assert view.contract is not None
            trick = ", ".join(f"{self.names[s]} {c.pretty()}" for s, c in view.current_trick) or "you lead"
            self.say(f"[{view.contract.pretty()}] Trick {len(view.completed_tricks) + 1}: {trick}")
            self.say(f"Your hand: {view.hand.pretty()}")

    def _ask(self, view: DealView) -> Action:
        self._describe(view)
        legal = view.legal_actions
        if view.phase is Phase.DISCARD:
            cards = list(view.hand)
            self.say("  " + "  ".join(f"{i + 1}:{c.pretty()}" for i, c in enumerate(cards)))
            prompt = "Discard two cards (two numbers or codes, e.g. '3 7' or '7D 8D'): "
        else:
            cards = []
            self.say(
                "  " + "  ".join(f"{i + 1}:{a.pretty().removeprefix('play ')}" for i, a in enumerate(legal))
            )
            prompt = "Your choice: "
        while True:
            text = self._read(prompt)
            if not text:
                continue
            low = text.lower()
            if low in ("q", "quit", "exit"):
                raise _Quit()
            if low in ("h", "help", "?"):
                self.say(HELP_TEXT)
                continue
            if low == "hand":
                self.say(f"Your hand: {view.hand.pretty()}")
                continue
            if low == "score":
                t = self.match.totals
                self.say("Totals: " + ", ".join(f"{self.names[s]} {signed(t[s])}" for s in range(3)))
                continue
            if low == "last":
                done = view.completed_tricks
                if done:
                    last = done[-1]
                    self.say(
                        "Last trick: "
                        + ", ".join(f"{self.names[s]} {c.pretty()}" for s, c in last.plays)
                        + f" → {self.names[last.winner]}"
                    )
                else:
                    self.say("No trick has been completed yet.")
                continue
            try:
                action = self._parse(text, view, legal, cards)
            except (ParseError, IllegalActionError) as err:
                self.say(f"  {err}  (type 'help' for help)")
                continue
            deal = self.match.deal
            assert deal is not None
            error = deal.why_illegal(action, self.human)
            if error is not None:
                self.say(f"  {error}")
                continue
            return action

    def _parse(self, text: str, view: DealView, legal: tuple[Action, ...], cards: list[Card]) -> Action:
        words = text.replace(",", " ").split()
        if view.phase is Phase.DISCARD:
            if words and words[0].lower() == "discard":
                words = words[1:]
            if len(words) != 2:
                raise ParseError("parse-action", "give exactly two cards to discard")
            picked = []
            for w in words:
                if w.isdigit():
                    k = int(w)
                    if not 1 <= k <= len(cards):
                        raise ParseError("parse-action", f"choose numbers from 1 to {len(cards)}")
                    picked.append(cards[k - 1])
                else:
                    picked.append(Card.parse(w))
            return Action.discard(picked[0], picked[1])
        if len(words) == 1 and words[0].isdigit():
            k = int(words[0])
            if not 1 <= k <= len(legal):
                raise ParseError("parse-action", f"choose a number from 1 to {len(legal)}")
            return legal[k - 1]
        if (
            view.phase in (Phase.AUCTION, Phase.TRUMP)
            and len(words) >= 1
            and words[0].lower() not in ("bid", "trump", "pass", "surrender")
        ):
            contract = Contract.parse(text)
            return Action.bid(contract) if view.phase is Phase.AUCTION else Action.trump(contract)
        return Action.parse(text)


def play(
    name: str = typer.Option("You", "--name", help="Your name on the score sheet."),
    seat: int = typer.Option(0, "--seat", min=0, max=2, help="Your seat (0, 1, 2; clockwise)."),
    opponents: str = typer.Option(
        "pimc,pimc",
        "--opponents",
        help=f"The two computer players; known: {', '.join(PLAYER_NAMES)} (pimc:1 … pimc:5).",
    ),
    level: int = typer.Option(
        3, "--level", "-l", min=1, max=5, help="Strength of pimc opponents: 1 (fast) to 5 (strongest)."
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Seed for a reproducible game (random if not given)."
    ),
    rules: str = typer.Option("spanish", "--rules", "-r", help="Preset and/or switches, e.g. 'short'."),
    out: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        dir_okay=False,
        help="Where to save the game record (default: paston-DATE.json here).",
    ),
) -> None:
    """Play a full game of Paston in the terminal against two computer players."""
    rule_set = parse_rules(rules)
    bot_names = [o.strip().lower() for o in opponents.split(",")]
    if len(bot_names) != 2:
        raise typer.BadParameter(
            f"give two of {', '.join(PLAYER_NAMES)}, not {opponents!r}", param_hint="--opponents"
        )
    for i, bot_name in enumerate(bot_names):
        try:
            kind, bot_level = parse_player_name(bot_name)
        except PastonError as err:
            raise typer.BadParameter(str(err), param_hint="--opponents") from None
        if kind == "pimc" and bot_level is None:
            bot_names[i] = f"pimc:{level}"
    if not name.strip():
        raise typer.BadParameter("the name may not be empty", param_hint="--name")
    if seed is None:
        seed = secrets.randbelow(2**32)
    rng = random.Random(f"paston-play:{seed}")
    other = [s for s in range(3) if s != seat]
    names = ["", "", ""]
    names[seat] = name.strip()
    bots: dict[int, Player] = {}
    for s, bot_name in zip(other, bot_names, strict=True):
        names[s] = f"{bot_name} ({s})"
        bots[s] = make_player(bot_name, seed=rng.getrandbits(64))
    if out is None:
        out = Path(f"paston-{datetime.now().strftime('%Y%m%d-%H%M%S')}.json")
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise typer.BadParameter(f"the folder {folder} does not exist", param_hint="--out")
    match = Match(first_dealer=rng.randrange(3), rules=rule_set, seats=tuple(names), rng=rng)
    game = TerminalGame(match, seat, bots, out)
    game.say(
        f"Paston — you are {names[seat]} in seat {seat}; opponents {names[other[0]]} and "
        f"{names[other[1]]}. Seed {seed}. Game to {rule_set.target}. Type 'help' for help."
    )
    try:
        game.run()
    except OSError as err:
        fail(f"cannot save the game to {out}: {err.strerror}")
