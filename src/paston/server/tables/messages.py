"""The messages of a table's audiences after a change: a full ``state`` or an
``update`` with only what changed, each built from its own audience's view and
encoded once for every connection that holds the same thing."""

from __future__ import annotations

import json
from typing import Any

from paston.server.tables.connection import Connection
from paston.server.tables.pause import pause_json, pause_stamp
from paston.server.tables.serialize import PublicHistory, last_event_json, view_json
from paston.server.tables.table import Table
from paston.summary import last_summary
from paston.views import DealView


def _public_summary(table: Table) -> dict[str, Any]:
    """The summary as messages carry it: without ``version`` (the message's own version
    says it)."""
    summary = table.summary()
    del summary["version"]
    return summary


def _previous_trick(table: Table) -> dict[str, Any] | None:
    """The final trick of the last finished deal that was played (public: its cards were
    played face up), so it can still be shown once the next deal has begun."""
    for deal in reversed(table.match.deals):
        if deal.is_over and deal.completed_tricks:
            last = deal.completed_tricks[-1]
            return {"plays": [{"seat": s, "card": str(c)} for s, c in last.plays], "winner": last.winner}
    return None


def sealed(table: Table, conn: Connection) -> bool:
    """Whether the hands of the current deal are withheld from this connection's seat
    (decision F6): the provisional first deal is being shuffled again (from everyone: a
    person who just came has not seeded the deal still shown), or, for a client that
    sends seeds, it will be shuffled again because a person's seat is empty or its
    person has not come yet (:meth:`Table.waits_for_people`). So no one sees a hand of a
    deal that a person seated and connected has not helped to shuffle (unless their
    seed timed out), and a person who sends seeds does not see, nor act on, a deal that
    the others' arrival will shuffle again. Older clients, which send no seeds, see the
    provisional deal as before."""
    if not table.provisional:
        return False
    return table.reshuffling or (conn in table.seeders and table.waits_for_people())


def _deals_json(table: Table) -> list[dict[str, Any]]:
    """Each deal's commitment; once the deal is over, its secret (``seed``) and its
    whole fairness object (seeds, who chose them, the previous link), so that a page can
    check the deal it helped to shuffle (``static/fairness.js``)."""
    match = table.match
    current = len(match.deals) - 1
    deals = []
    for i, (seed, commit) in enumerate(table.seeds):
        over = i < current or match.deals[i].is_over
        entry = table.fairness[i] if over and i < len(table.fairness) else None
        deals.append({"commit": commit, "seed": seed if over else None, "fairness": entry})
    return deals


def _final_deals(table: Table) -> int:
    """How many of the first deals' entries (:func:`_deals_json`) will never change: over,
    with their fairness object. An update sends the entries from there on (``deals_from``),
    so a long game's updates do not grow with every deal played."""
    match = table.match
    current = len(match.deals) - 1
    final = 0
    for i in range(len(table.seeds)):
        over = i < current or match.deals[i].is_over
        if not over or i >= len(table.fairness) or table.fairness[i] is None:
            break
        final += 1
    return final


def _shared(table: Table, summary: dict[str, Any]) -> dict[str, Any]:
    """The parts of a state that every audience gets alike."""
    deals = _deals_json(table)
    match = table.match
    return {
        "table": summary,
        "sheet": table.sheet(),
        "deals": deals,
        "winners": list(match.winners),
        "previous_trick": _previous_trick(table),
        "shuffling": table.reshuffling,
        "last_deal": _last_deal(table),
        "next_deal": pause_json(table),
    }


def _last_deal(table: Table) -> dict[str, Any] | None:
    """The summary of the last scored deal: only a deal that is over, whose hands are
    no longer secret (its deck's secret is revealed too)."""
    summary = last_summary(table.match)
    return None if summary is None else summary.to_json()


def _game_stamp(table: Table) -> tuple[object, ...]:
    """Changes whenever the sheet, the deck commitments, the winners, the previous
    trick, the shuffling of the first deal, its hands withheld (:func:`sealed`) or the
    pause after a deal may have changed: a new deal, a deal's end, the game's end, a
    shuffle of the first deal begun, a person coming or pressing Next."""
    deals = table.match.deals
    deal = deals[-1] if deals else None
    return (
        len(deals),
        deal is not None and deal.is_over,
        tuple(table.match.winners),
        table.reshuffling,
        table.provisional and table.waits_for_people(),
        pause_stamp(table),
    )


def _holds(
    conn: Connection,
    version: int,
    deal: int,
    summary: dict[str, Any],
    game: tuple[object, ...],
) -> bool:
    """Whether a connection holds exactly what it would be sent now."""
    return (
        conn.held_version == version
        and conn.held_deal == deal
        and conn.held_game == game
        and conn.held_table == summary
    )


def next_messages(
    table: Table, connections: list[Connection], *, full: bool = False
) -> dict[Connection, str]:
    """The next message of each connection, built from its own audience's view and
    marked as held. A connection that already holds the current version, summary and
    game gets nothing (unless ``full`` is asked). A connection gets a full ``state``
    when it holds nothing yet, does not take updates, or ``full`` is asked (a resync);
    otherwise an ``update`` with the view (without its history), the new history entry
    (``event``) or the whole history (a new deal), and the shared parts that changed.
    Connections that hold the same thing share one encoded text."""
    out: dict[Connection, str] = {}
    if not connections:
        return out
    match = table.match
    version = table.version
    deal_index = len(match.deals) - 1
    summary = _public_summary(table)
    game = _game_stamp(table)
    shared: dict[str, Any] | None = None
    public: PublicHistory | None = None
    views: dict[int | None, DealView] = {}
    texts: dict[tuple[object, ...], str] = {}
    final: int | None = None
    for conn in connections:
        seat = conn.seat
        if not full and _holds(conn, version, deal_index, summary, game):
            continue  # nothing new for it
        send_full = full or not conn.updates or conn.held_version < 0
        hidden = sealed(table, conn)  # the view without the seat's cards (F6)
        start = 0  # an update's first deal entry (``deals_from``)
        if send_full:
            key: tuple[object, ...] = (seat, hidden, "full")
        else:
            if conn.held_deal != deal_index or conn.held_version not in (version, version - 1):
                history = "all"
            elif conn.held_version == version - 1:
                history = "event"
            else:
                history = "none"
            game_held = conn.held_game == game
            start = 0 if game_held else conn.held_deals_final
            key = (seat, hidden, history, conn.held_table == summary, game_held, start)
        text = texts.get(key)
        if text is None:
            view = views.get(seat)
            if view is None:
                view = views[seat] = match.view(seat)
            if public is None and (send_full or key[2] == "all"):
                spectator = views.get(None)
                if spectator is None:
                    spectator = views[None] = match.view(None)
                public = PublicHistory.of(spectator)
            if send_full:
                if shared is None:
                    shared = _shared(table, summary)
                body = {
                    "type": "state",
                    "version": version,
                    "you": seat,
                    "view": view_json(view, public, sealed=hidden),
                    **shared,
                    "sealed": hidden,
                }
            else:
                body = {"type": "update", "version": version, "you": seat, "sealed": hidden}
                body["view"] = view_json(view, public, history=key[2] == "all", sealed=hidden)
                if key[2] == "event":
                    body["event"] = last_event_json(view)
                if not key[3]:
                    body["table"] = summary
                if not key[4]:
                    if shared is None:
                        shared = _shared(table, summary)
                    body.update({k: v for k, v in shared.items() if k != "table"})
                    body["deals"] = shared["deals"][start:]  # what it holds before is final
                    body["deals_from"] = start
            text = texts[key] = json.dumps(body, separators=(",", ":"))
        out[conn] = text
        if send_full or not key[4]:
            if final is None:
                final = _final_deals(table)
            conn.held_deals_final = final
        conn.held_version = version
        conn.held_deal = deal_index
        conn.held_table = summary
        conn.held_game = game
    return out
