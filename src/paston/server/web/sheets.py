"""The score sheet of a game played with real cards (``/sheet``): the HTTP side.

A sheet is made with three player names and a rule set; its maker gets an owner token
once (the page keeps it in the browser's ``localStorage``), which every change needs:
adding a deal, undoing the last. The sheet's id is its read-only share link
(``/sheet/<id>``): anyone may read the sheet and download it as the ``paston-sheet/1``
file that ``paston sheet show`` reads. Every deal is scored, and every total reset
(R8.2) and the winner (R8.3) found, by :mod:`paston.sheet`, never by the page.

``POST /api/sheets`` ``{"players": [a, b, c], "rules": {…}}`` → 201 ``{"id", "token", "share", "sheet"}``;
``GET /api/sheets/{id}``: the sheet (:func:`sheet_view`); ``POST /api/sheets/{id}/deals``
``{"token", "outcome", "declarer", "contract", "defenders", "tricks", "deals"}`` and
``POST /api/sheets/{id}/undo`` ``{"token", "deals"}``: the sheet after the change
(``deals``, optional: the number of deals the client saw; another number is refused,
so a tap sent twice adds one deal); ``GET /api/sheets/{id}/export``: the file.

What a stranger could abuse is bounded: the body (the app's limit for JSON routes), the
names (:func:`check_names`), the deals of a sheet, sheets made per address (a burst and
a rate, and a cap a day) and in all (:class:`SheetLimits`). A refusal is one error
naming the problem (and the rule, where one applies) and changes nothing.

>>> check_names(["Ana", " Bo ", "Cy"])
('Ana', 'Bo', 'Cy')
>>> check_names(["Ana", "ana", "Cy"])
Traceback (most recent call last):
paston.server.web.sheets.SheetError: the three names must differ (ignoring case): 'ana' is there twice
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine

from paston.contracts import Contract
from paston.errors import IllegalActionError, PastonError, RulesError
from paston.rules import Rules
from paston.server.store.db import now
from paston.server.store.sheetstore import SheetStore, StoredSheet
from paston.server.table_error import TableError
from paston.server.tables.seating import hash_token, new_token
from paston.server.web.http import error_response, page_response
from paston.server.web.limits import CreationGate, LimitError, Limits
from paston.sheet import ScoreSheet, score_deal

#: The longest player name (as a seat's name at a table).
MAX_NAME = 40


@dataclass(frozen=True)
class SheetLimits:
    """The limits of the score sheets.

    - ``create_burst``, ``create_every``: an address may make ``create_burst`` sheets at
      once, then one more every ``create_every`` seconds (a token bucket, as tables);
    - ``sheets_per_day``: sheets one address may make in 24 hours (kept in the database,
      so it holds across restarts and the workers of a cluster);
    - ``sheets``: sheets the database may hold in all;
    - ``deals_per_sheet``: deals one sheet may hold (a game to 121 takes a few dozen);
    - ``keep_days``: a sheet not changed for this many days is deleted (reading it does
      not count: :class:`~paston.server.web.sheetsweep.SheetSweeper`; docs/rules-decisions.md W22).
    """

    create_burst: int = 5
    create_every: float = 60.0
    sheets_per_day: int = 50
    sheets: int = 100_000
    deals_per_sheet: int = 500
    keep_days: float = 180.0


class SheetError(TableError):
    """A refused request about a sheet: ``status`` is its HTTP status, ``rule`` the rule
    broken (when one is)."""

    def __init__(self, code: str, message: str, status: int = 400, rule: str | None = None) -> None:
        super().__init__(code, message)
        self.status = status
        self.rule = rule


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NewSheet(_Body):
    """A new sheet: three player names, seats 0, 1, 2 clockwise, and the rules."""

    players: Annotated[list[Annotated[str, Field(max_length=200)]], Field(min_length=3, max_length=3)]
    rules: dict[str, Any] = Field(default_factory=dict)


Token = Annotated[str, Field(min_length=1, max_length=64)]
Seen = Annotated[int, Field(ge=0)] | None


class NewDeal(_Body):
    """One deal as the CLI's ``paston sheet add`` takes it: how it ended, the declarer,
    the contract, who said whist (the defenders) and the tricks per seat."""

    token: Token
    outcome: Annotated[str, Field(max_length=20)]  # one of paston.sheet.OUTCOMES (score_deal says)
    declarer: int
    contract: Annotated[str, Field(max_length=20)] | None = None
    defenders: Annotated[list[int], Field(max_length=3)] = Field(default_factory=list)
    tricks: Annotated[list[int], Field(max_length=3)] | None = None
    deals: Seen = None


class Undo(_Body):
    """Take back the last deal."""

    token: Token
    deals: Seen = None


def check_names(names: Sequence[str]) -> tuple[str, str, str]:
    """Three player names, trimmed: 1 to 40 characters each, no control characters, no
    comma (the CLI's ``--declarer`` and ``--defenders`` take names, comma-separated), not
    a seat number, and all different ignoring case. Markup is only text: the page never
    reads a name as HTML."""
    out = [n.strip() for n in names]
    for n in out:
        if not 1 <= len(n) <= MAX_NAME:
            raise SheetError(
                "bad-player-name", f"a player name must have 1 to {MAX_NAME} characters, not {len(n)}"
            )
        if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in n):
            raise SheetError("bad-player-name", f"the player name {n!r} holds a control character")
        if "," in n:
            raise SheetError("bad-player-name", f"a player name may not hold a comma: {n!r}")
        if n in ("0", "1", "2"):
            raise SheetError("bad-player-name", "a player name may not be a seat number (0, 1, 2)")
    seen: set[str] = set()
    for n in out:
        if n.casefold() in seen:
            raise SheetError(
                "bad-player-name", f"the three names must differ (ignoring case): {n!r} is there twice"
            )
        seen.add(n.casefold())
    return out[0], out[1], out[2]


def sheet_view(sheet_id: str, sheet: ScoreSheet, limits: SheetLimits) -> dict[str, Any]:
    """What the page shows of a sheet: each deal with its scores, the running totals
    after it and the seats it reset (R8.2); the totals, the winners (R8.3)."""
    history = sheet.totals_history
    deals = [
        {
            "number": i + 1,
            **e.to_record(),
            "made": e.made,
            "totals": list(history[i]),
            "resets": list(sheet.resets(i)),
        }
        for i, e in enumerate(sheet.entries)
    ]
    return {
        "id": sheet_id,
        "share": f"/sheet/{sheet_id}",
        "players": list(sheet.players),
        "rules": sheet.rules.to_dict(),
        "deals": deals,
        "totals": list(sheet.totals),
        "winners": list(sheet.winners),
        "over": bool(sheet.winners),
        "max_deals": limits.deals_per_sheet,
    }


class Sheets:
    """The sheets of a server: storage, owner tokens and limits."""

    def __init__(self, engine: Engine, limits: SheetLimits | None = None) -> None:
        self.store = SheetStore(engine)
        self.limits = limits or SheetLimits()
        self._gate_lock = threading.Lock()
        self._gate: CreationGate | None = None
        self._gate_of: SheetLimits | None = None

    def gate(self) -> CreationGate:
        """The token buckets of sheet creation (new ones when the limits change)."""
        if self._gate is None or self._gate_of != self.limits:
            self._gate = CreationGate(
                Limits(create_burst=self.limits.create_burst, create_every=self.limits.create_every)
            )
            self._gate_of = self.limits
        return self._gate

    def create(self, body: NewSheet, client: str) -> dict[str, Any]:
        """A new sheet made by ``client`` (an address, :func:`~.limits.client_key`)."""
        players = check_names(body.players)
        try:
            rules = Rules.from_dict(body.rules)
        except RulesError as err:
            raise SheetError("bad-rules", str(err)) from None
        creator = hash_token(client)
        if self.store.count() >= self.limits.sheets:
            raise LimitError(
                "server-full", f"the server holds its maximum of {self.limits.sheets} sheets", 3600.0
            )
        made = self.store.made_since(creator, now() - timedelta(days=1))
        if made >= self.limits.sheets_per_day:
            raise LimitError(
                "too-many-sheets",
                f"this address made {made} sheets today, the most one address may; try again tomorrow",
                3600.0,
            )
        with self._gate_lock:
            wait = self.gate().take(client, time.monotonic())
        if wait is not None:
            raise LimitError("sheet-rate-limited", "too many new sheets; try again shortly", wait)
        sheet_id = secrets.token_urlsafe(12)
        token, token_hash = new_token()
        self.store.create(sheet_id, players, rules, token_hash, creator)
        view = sheet_view(sheet_id, ScoreSheet(players=players, rules=rules), self.limits)
        return {"id": sheet_id, "token": token, "share": view["share"], "sheet": view}

    def sweep(self, at: datetime | None = None) -> int:
        """Delete the sheets untouched for ``keep_days`` at ``at`` (default: now); how many."""
        return self.store.delete_untouched((at or now()) - timedelta(days=self.limits.keep_days))

    def load(self, sheet_id: str) -> StoredSheet:
        """The stored sheet, or a 404."""
        stored = self.store.load(sheet_id) if len(sheet_id) <= 32 else None
        if stored is None:
            raise SheetError("no-sheet", f"there is no score sheet {sheet_id[:40]!r}", 404)
        return stored

    def owned(self, sheet_id: str, token: str, seen: int | None) -> tuple[StoredSheet, ScoreSheet]:
        """The sheet, for its owner only, as the client saw it (``seen`` deals)."""
        stored = self.load(sheet_id)
        try:
            digest = hash_token(token)
        except UnicodeEncodeError:  # a lone surrogate (JSON allows "\ud800"): no token of ours
            digest = ""
        if not hmac.compare_digest(stored.token_hash, digest):
            raise SheetError(
                "not-sheet-owner", "only the sheet's maker may change it (this link is read-only)", 403
            )
        if seen is not None and seen != len(stored.deals):
            raise SheetError(
                "sheet-changed",
                f"the sheet has {len(stored.deals)} deals, not the {seen} you saw; nothing was changed, "
                "the sheet is shown again",
                409,
            )
        return stored, stored.sheet()

    def save(self, stored: StoredSheet, sheet: ScoreSheet) -> dict[str, Any]:
        """Write the changed sheet (from the version read) and return its view."""
        deals = [e.to_record() for e in sheet.entries]
        if not self.store.replace_deals(stored.id, stored.version, deals):
            raise SheetError("sheet-changed", "the sheet was changed meanwhile; nothing was changed", 409)
        return sheet_view(stored.id, sheet, self.limits)

    def add(self, sheet_id: str, body: NewDeal) -> dict[str, Any]:
        """Score one deal (R7) and add it to the sheet (refused once the game is over, R8.3)."""
        stored, sheet = self.owned(sheet_id, body.token, body.deals)
        if len(sheet.entries) >= self.limits.deals_per_sheet:
            raise SheetError(
                "sheet-full",
                f"a sheet holds at most {self.limits.deals_per_sheet} deals; start a new one",
                409,
            )
        try:
            contract = None if body.contract is None else Contract.parse(body.contract)
            result = score_deal(
                body.outcome,
                declarer=body.declarer,
                contract=contract,
                defenders=body.defenders,
                tricks=body.tricks,
                rules=sheet.rules,
            )
            sheet.add(result)
        except IllegalActionError as err:
            status = 409 if err.code == "game-over" else 400
            raise SheetError(err.code, str(err), status, err.rule) from None
        except PastonError as err:
            raise SheetError(err.code, str(err)) from None
        return self.save(stored, sheet)

    def undo(self, sheet_id: str, body: Undo) -> dict[str, Any]:
        """Take the last deal back."""
        stored, sheet = self.owned(sheet_id, body.token, body.deals)
        try:
            sheet.undo()
        except IllegalActionError as err:
            raise SheetError(err.code, str(err), 409, err.rule) from None
        return self.save(stored, sheet)


def add_sheet_routes(
    app: FastAPI,
    engine: Engine,
    page: str,
    client_of: Callable[[Request], str],
    limits: SheetLimits | None = None,
) -> Sheets:
    """The sheets' API and pages on ``app`` (``page``: the client's page; ``client_of``:
    who a request is counted against). The :class:`Sheets` is ``app.state.sheets``."""
    sheets = Sheets(engine, limits)
    app.state.sheets = sheets

    @app.exception_handler(SheetError)
    async def refused(request: Request, err: SheetError) -> JSONResponse:
        if err.rule is None:
            return error_response(err.status, err.code, str(err))
        return error_response(err.status, err.code, str(err), rule=err.rule)

    @app.post("/api/sheets", status_code=201)
    def create_sheet(body: NewSheet, request: Request) -> dict[str, Any]:
        return sheets.create(body, client_of(request))

    @app.get("/api/sheets/{sheet_id}")
    def read_sheet(sheet_id: str) -> dict[str, Any]:
        stored = sheets.load(sheet_id)
        return sheet_view(stored.id, stored.sheet(), sheets.limits)

    @app.get("/api/sheets/{sheet_id}/export")
    def export_sheet(sheet_id: str) -> JSONResponse:
        stored = sheets.load(sheet_id)
        disposition = f'attachment; filename="paston-sheet-{stored.id}.json"'
        return JSONResponse(stored.sheet().to_dict(), headers={"content-disposition": disposition})

    @app.post("/api/sheets/{sheet_id}/deals", status_code=201)
    def add_deal(sheet_id: str, body: NewDeal) -> dict[str, Any]:
        return sheets.add(sheet_id, body)

    @app.post("/api/sheets/{sheet_id}/undo")
    def undo_deal(sheet_id: str, body: Undo) -> dict[str, Any]:
        return sheets.undo(sheet_id, body)

    @app.get("/sheet")
    async def new_sheet_page() -> HTMLResponse:
        return page_response(page)

    @app.get("/sheet/{sheet_id}")
    async def sheet_page(sheet_id: str) -> HTMLResponse:
        return page_response(page)

    return sheets
