"""Deleting score sheets nobody changed for long (``SheetLimits.keep_days``, ``paston serve
--sheet-days``): once when the server starts, then every ``interval`` seconds (an hour,
or a quarter of the keeping time when that is shorter). Reading a sheet does not keep it
(docs/rules-decisions.md W22). In a cluster every worker sweeps: deleting is the same
statement whoever runs it first, and the others then find nothing.
"""

from __future__ import annotations

import asyncio
import logging

from paston.server.web.sheets import Sheets

log = logging.getLogger("paston.server")

#: The longest wait between two sweeps, in seconds.
MAX_INTERVAL = 3600.0


class SheetSweeper:
    """Sweeps ``sheets``' database for sheets untouched longer than their limits keep them."""

    def __init__(self, sheets: Sheets) -> None:
        self.sheets = sheets
        self.task: asyncio.Task[None] | None = None

    @property
    def interval(self) -> float:
        """Seconds between two sweeps (the limits may change while the server runs)."""
        return max(0.05, min(MAX_INTERVAL, self.sheets.limits.keep_days * 86400.0 / 4))

    def sweep(self) -> int:
        """Delete the sheets untouched too long, now; how many went (logged when any did)."""
        gone = self.sheets.sweep()
        if gone:
            log.info("deleted %d score sheets untouched for %g days", gone, self.sheets.limits.keep_days)
        return gone

    async def run(self) -> None:
        while True:
            try:
                await asyncio.to_thread(self.sweep)
            except Exception as err:  # the database failed: try again next time
                log.warning("deleting old score sheets failed: %s: %s", type(err).__name__, err)
            await asyncio.sleep(self.interval)

    def start(self) -> None:
        """Sweep now, then every :attr:`interval` seconds, on the running event loop."""
        self.task = asyncio.get_running_loop().create_task(self.run())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
