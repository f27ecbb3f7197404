"""The messages of the live table WebSocket: what a client may send, checked strictly
(a boolean is not a number, a number is not a string), and the one shape of an error.

>>> parse('{"type": "act", "action": "pass", "version": 3, "id": "c-1"}')
Act(type='act', action='pass', version=3, id='c-1')
>>> parse('{"type": "act", "action": "pass", "version": true}')
Traceback (most recent call last):
...
paston.server.table_error.TableError: malformed message: act.version: Input should be a valid integer
>>> error("stale", "resync")
{'type': 'error', 'code': 'stale', 'message': 'resync'}
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from paston.server.table_error import TableError

#: The largest message a client may send, in bytes.
MAX_MESSAGE_BYTES = 4096
#: The largest frame the server reads at all (a larger one closes the socket, 1009);
#: between the two, a message is answered ``too-large``.
MAX_FRAME_BYTES = 65_536


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_Message):
    type: Literal["hello"]
    token: Annotated[str, Field(max_length=64)] | None = None
    updates: bool = False  # after the first full state, send only what changed
    seeds: bool = False  # this client sends a seed for each deal (docs/FAIRNESS.md)
    next: bool = False  # this client shows each finished deal and sends next (server/tables/pause.py)


class Act(_Message):
    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=40)]
    version: Annotated[int, Field(ge=0)] | None = None
    id: Annotated[str, Field(min_length=1, max_length=64)] | None = None


class Sync(_Message):
    type: Literal["sync"]


class Ping(_Message):
    type: Literal["ping"]


class HintRequest(_Message):
    """A practice table's hint for the seat's own decision (server/tables/hints.py)."""

    type: Literal["hint"]


_HEX64 = r"^[0-9a-f]{64}$"


class Seed(_Message):
    """A client's seed for the deal whose commitment it names (64 lowercase hex digits each)."""

    type: Literal["seed"]
    commit: Annotated[str, Field(pattern=_HEX64)]
    seed: Annotated[str, Field(pattern=_HEX64)]


class Next(_Message):
    """A person is done looking at the finished deal ``deal`` (its index; ``None``: the
    one on show)."""

    type: Literal["next"]
    deal: Annotated[int, Field(ge=0)] | None = None


Message = Hello | Act | Sync | Ping | Seed | HintRequest | Next
ClientMessage = Annotated[Message, Field(discriminator="type")]
_MESSAGE: TypeAdapter[Message] = TypeAdapter(ClientMessage)


def parse(raw: str, code: str = "malformed") -> Message:
    """A client's message from its JSON text; a :class:`TableError` with ``code`` names
    the first field that is wrong."""
    try:
        return _MESSAGE.validate_json(raw)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "message"
        raise TableError(code, f"{code.replace('-', ' ')} message: {where}: {first['msg']}") from None


def error(code: str, message: str, rule: str | None = None, **extra: Any) -> dict[str, Any]:
    """An error message: ``type``, a stable ``code``, a ``message``, the ``rule`` a
    refused game action breaks, and (answering an ``act``) the command's ``id``."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if rule:
        out["rule"] = rule
    out.update(extra)
    return out
