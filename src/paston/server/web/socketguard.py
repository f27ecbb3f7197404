"""Per-address limits of the table sockets, across all of an address's sockets: how many
it may hold open at once, and how fast it may ask for full states (``sync``).

A table caps its own watchers, and each socket its own message rate; but many sockets
from one address (each within those caps) once held the server's every file handle, or
asked for full states together fast enough to slow every table. The guard counts per
client address (the peer, or the address a trusted proxy names: the same key as the
creation limits).

>>> guard = SocketGuard(max_sockets=2, syncs_per_second=1.0, sync_burst=2)
>>> guard.open("a"), guard.open("a"), guard.open("a")
(True, True, False)
>>> guard.close("a"); guard.open("a")
True
>>> guard.take_sync("a", now=0.0), guard.take_sync("a", now=0.0), guard.take_sync("a", now=0.0)
(True, True, False)
>>> guard.take_sync("a", now=1.0)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Sockets one address may hold open at once, over every table (a household or an office
#: behind one address has room; one client with a thousand sockets has not).
MAX_SOCKETS_PER_ADDRESS = 64
#: Full states one address may ask for per second, over all its sockets, and at once.
SYNCS_PER_SECOND = 8.0
SYNC_BURST = 16


@dataclass
class SocketGuard:
    """The counts per address (in memory; one per server process)."""

    max_sockets: int = MAX_SOCKETS_PER_ADDRESS
    syncs_per_second: float = SYNCS_PER_SECOND
    sync_burst: int = SYNC_BURST
    _open: dict[str, int] = field(default_factory=dict)
    _syncs: dict[str, tuple[float, float]] = field(default_factory=dict)  # address -> (tokens, when)
    refused_sockets: int = 0
    refused_syncs: int = 0

    def open(self, address: str) -> bool:
        """Count one more socket of ``address``; ``False`` (nothing counted) when it holds
        as many as it may."""
        held = self._open.get(address, 0)
        if held >= self.max_sockets:
            self.refused_sockets += 1
            return False
        self._open[address] = held + 1
        return True

    def close(self, address: str) -> None:
        """One socket of ``address`` has closed."""
        held = self._open.get(address, 0) - 1
        if held > 0:
            self._open[address] = held
        else:
            self._open.pop(address, None)
            self._syncs.pop(address, None)

    def take_sync(self, address: str, now: float) -> bool:
        """Whether ``address`` may have one more full state now (a token bucket shared by
        all its sockets)."""
        burst = float(self.sync_burst)
        tokens, when = self._syncs.get(address, (burst, now))
        tokens = min(burst, tokens + max(0.0, now - when) * self.syncs_per_second)
        if tokens < 1.0:
            self._syncs[address] = (tokens, now)
            self.refused_syncs += 1
            return False
        self._syncs[address] = (tokens - 1.0, now)
        return True

    def held(self, address: str) -> int:
        """Sockets ``address`` holds open now."""
        return self._open.get(address, 0)
