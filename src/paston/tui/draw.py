"""The table's texts for the full-screen app: the status line with the contract and
trump, each opponent's place, the trick by seat, the score and the keys, in the player's
language. Only what the shown seat's view holds is drawn.

>>> import random
>>> from pathlib import Path
>>> from paston.bots import make_player
>>> from paston.match import Match
>>> from paston.tui.session import GameSession
>>> match = Match(first_dealer=0, seats=("Ana", "Bo", "Cy"))
>>> bots = {1: make_player("random", seed=1), 2: make_player("random", seed=2)}
>>> game = GameSession(match, {0}, bots, Path("unused.json"), random.Random(5))
>>> game.deal_on()
>>> texts = TableText(game, Words("en"))
>>> texts.status_line(game.view(0)).plain
'Deal 1 · Ana deals · game to 121'
>>> texts.score_text().plain.splitlines()[0]
'Score'
"""

from __future__ import annotations

from rich.text import Text

from paston.bots.explain import Hint
from paston.phases import Phase
from paston.tui.look import card_text, cards_text, fan, ladder_lines, last_said, needs, role_of, seat_role
from paston.tui.session import GameSession
from paston.tui.words import Words
from paston.views import DealView

__all__ = ["TableText"]


class TableText:
    """The texts of one game's table (``session``) in ``words``' language."""

    def __init__(self, session: GameSession, words: Words, *, four_colour: bool = False) -> None:
        self.session = session
        self.words = words
        self.four_colour = four_colour

    def status_line(self, view: DealView, message: str = "") -> Text:
        match = self.session.match
        names = self.session.names
        words = self.words
        text = Text(
            words("term_status", n=len(match.deals), dealer=names[view.dealer], target=match.rules.target)
        )
        if view.contract is not None and view.declarer is not None:
            text.append(" │ ")
            text.append(
                words("declares", name=names[view.declarer], contract=words.contract(view.contract)),
                style="bold",
            )
            text.append(" · " + words("term_trump", suit="♠♣♦♥"[view.contract.trump_suit]))
        elif view.high_bid is not None:
            text.append(" │ " + words("highestBid", contract=words.contract(view.high_bid)))
        if message:
            text.append(f" │ {message}", style="bold yellow")
        return text

    def seat_title(self, view: DealView, seat: int) -> str:
        role = role_of(seat_role(view, seat), needs(view, seat), view.tricks[seat], self.words)
        dealer = " · " + self.words("dealerShort") if seat == view.dealer else ""
        return f"{self.session.names[seat]} · {role}{dealer}"

    def seat_text(self, view: DealView, seat: int) -> Text:
        """An opponent: name (and dealer), then role and tricks, what it said, its cards' backs."""
        words = self.words
        text = Text(self.session.names[seat], style="bold")
        if seat == view.dealer:
            text.append(" · " + words("dealerShort"))
        if seat == self.session.waiting_for:
            text.append(" " + words("term_toMove"), style="bold yellow")
        text.append("\n" + role_of(seat_role(view, seat), needs(view, seat), view.tricks[seat], words))
        said = last_said(view, seat, words) if view.phase < Phase.PLAY else None
        if said:
            text.append(f" “{said}”")
        size = view.hand_sizes[seat]
        text.append(f"  {fan(size)} {size}", style="dim")
        return text

    def trick_text(self, view: DealView, shown: int) -> Text:
        left, right = (shown + 1) % 3, (shown + 2) % 3
        names = self.session.names
        words = self.words
        if view.phase < Phase.PLAY:
            phase_words = {
                Phase.AUCTION: words("auction"),
                Phase.DISCARD: words.game["prikup"],
                Phase.TRUMP: words("phase_trump"),
                Phase.DEFENCE: words("anPhase_whist"),
            }
            text = Text(phase_words.get(view.phase, ""), style="bold")
            if view.prikup is not None:
                text.append(f"\n{words.game['prikup']}: ")
                text.append_text(cards_text(view.prikup, words, four_colour=self.four_colour))
            return text
        plays = dict(view.current_trick)
        winner = None
        title = words("trickN", n=len(view.completed_tricks) + 1)
        if not plays and view.completed_tricks:
            last = view.completed_tricks[-1]
            plays, winner = dict(last.plays), last.winner
            title = words("term_trickTo", n=len(view.completed_tricks), name=names[winner])
        text = Text(title, style="bold")

        def cell(seat: int) -> Text:
            out = Text(f"{names[seat][:12]}: ")
            if seat in plays:
                out.append_text(card_text(plays[seat], words, four_colour=self.four_colour))
                if seat == winner:
                    out.append(" ✓", style="bold green")
            else:
                out.append("·", style="dim")
            return out

        text.append("\n")
        text.append_text(cell(left))
        text.append("    ")
        text.append_text(cell(right))
        text.append("\n\n          ")
        text.append_text(cell(shown))
        return text

    def score_text(self) -> Text:
        match = self.session.match
        names = self.session.names
        text = Text(self.words("term_score"), style="bold")
        leader = max(match.totals)
        for s in range(3):
            style = "bold green" if match.totals[s] == leader and leader > 0 else ""
            text.append(f"\n{names[s][:18]:<19}{match.totals[s]:>6}", style=style)
        deals = self.words("term_dealsTo", n=match.completed_deals, target=match.rules.target)
        text.append(f"\n{deals}", style="dim")
        return text

    def keys_line(self) -> Text:
        """The keys at the foot of the screen, in the player's words."""
        text = Text()
        keys = [("h", "term_key_hint"), ("l", "term_key_last"), ("s", "term_key_score")]
        if self.session.may_undo:
            keys.append(("u", "term_key_undo"))
        keys += [("?", "term_key_help"), ("q", "term_key_quit")]
        for key, word in keys:
            text.append(f" {key}", style="bold yellow")
            text.append(f" {self.words(word)} ")
        return text

    # --- the dialogs' texts -------------------------------------------------------------
    def help_lines(self) -> list[str]:
        """The keys, the ladder's words and what each side needs (R3.1, R6.3, R5.2)."""
        words = self.words
        lines = [words("term_help1"), words("term_help2")]
        if self.session.may_undo:
            lines.append(words("term_help3"))
        return [*lines, "", *ladder_lines(words)]

    def last_trick_line(self, view: DealView) -> str:
        """The last trick of the deal with who played what and who took it."""
        if not view.completed_tricks:
            return self.words("term_noTrickYet")
        last = view.completed_tricks[-1]
        names = self.session.names
        plays = ", ".join(f"{names[seat]} {self.words.card(card)}" for seat, card in last.plays)
        return self.words("term_lastTrick", plays=plays, name=names[last.winner])

    def sheet_lines(self) -> list[str]:
        """The score sheet: the totals after each scored deal, then the game's."""
        match = self.session.match
        words = self.words
        head = f"{words('term_sheetDeal')[:10]:<10}" + "".join(f"{n[:14]:>16}" for n in self.session.names)
        lines = [head]
        for number, totals in enumerate((t for t in match.deal_totals if t is not None), start=1):
            lines.append(f"{number:>8}  " + "".join(f"{t:>16}" for t in totals))
        lines.append(f"{words('endTotal')[:10]:<10}" + "".join(f"{t:>16}" for t in match.totals))
        return [*lines, words("term_gameTo", target=match.rules.target)]

    def game_over_lines(self) -> list[str]:
        """Who won, the final totals and where the record is."""
        match = self.session.match
        names = self.session.names
        words = self.words
        who = words("log_and").join(names[s] for s in match.winners)
        totals = ", ".join(f"{names[s]} {match.totals[s]}" for s in range(3))
        return [
            words("winnersShare" if len(match.winners) > 1 else "winnerWins", names=who),
            words("term_finalTotals", totals=totals),
            words("term_saved", file=self.session.out),
        ]

    def hint_lines(self, hint: Hint, phase: Phase) -> list[str]:
        """The options of the person's decision, best first, from their view only."""
        words = self.words
        lines = [words("term_hintTitle", n=hint.worlds)]
        for rank, option in enumerate(hint.options[:10], start=1):
            best = "  " + words("term_best") if rank == 1 else ""
            tricks = (
                ""
                if option.tricks is None
                else "   " + words("term_expectedTricks", n=f"{option.tricks:.1f}")
            )
            label = words.action(option.action, phase)
            points = words("term_points", score=f"{option.score:+.2f}")
            lines.append(f"  {rank:>2}. {label:<24} {points:>12}{tricks}{best}")
        return lines
