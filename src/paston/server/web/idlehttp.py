"""HTTP connections that must say something: uvicorn's h11 protocol with a deadline for
each request head.

uvicorn closes a kept-alive connection that stays silent after an answer
(``timeout_keep_alive``), but a connection that never sends a whole request head (it
opened and said nothing, or sends a header byte now and then) it keeps for ever: a
thousand of them held every file handle of a server once (issue 22).
:class:`HeadTimeoutProtocol` closes a connection that has not sent a complete request
head within :data:`HEAD_TIMEOUT` seconds of opening, or of its last answer. A request
being answered (a lobby's event stream, say) and a connection upgraded to a WebSocket
are not timed (WebSockets have their own pings: ``paston serve``'s ``ws_ping_*``).

>>> HeadTimeoutProtocol.head_timeout == HEAD_TIMEOUT
True
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol, RequestResponseCycle

#: Seconds a connection has to send a complete request head.
HEAD_TIMEOUT = 10.0


class HeadTimeoutProtocol(H11Protocol):
    """uvicorn's :class:`H11Protocol`, closing connections that send no request head in
    time (see the module's text)."""

    head_timeout = HEAD_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._head_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._await_head()

    def _await_head(self) -> None:
        self._stop_head_timer()
        if not self.transport.is_closing():
            self._head_timer = self.loop.call_later(self.head_timeout, self._head_overdue, self.cycle)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_overdue(self, cycle: RequestResponseCycle | None) -> None:
        """No request head since the timer started (the cycle is the one before): close."""
        self._head_timer = None
        silent = self.cycle is cycle and (cycle is None or cycle.response_complete)
        if silent and not self.transport.is_closing():
            self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.cycle is None or self.cycle.response_complete:  # not a pipelined request under way
            self._await_head()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._stop_head_timer()  # the WebSocket protocol takes the connection over
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)
