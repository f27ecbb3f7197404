"""Table leases in Redis: one owner per table, for as long as it renews its lease.

A lease is the key ``paston:owner:<table>`` holding the owning worker's id, set with
``SET NX PX`` (only if nobody holds it) and renewed by its holder before it expires;
a worker that stops renewing (killed, cut off from Redis) loses its tables after
``ttl`` seconds, and any other worker may then claim them. The lease is only the
fast path of mutual exclusion: the fencing token in the database
(:mod:`paston.server.cluster.fencing`) is what keeps a former owner from committing.

Workers also announce themselves (``paston:workers``, a sorted set of last heartbeats),
so that orphaned tables are shared among the live workers.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

PREFIX = "paston:"

# Renew the caller's leases: 1 for each key it still holds (its expiry pushed back), 0 otherwise.
_RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

# Release the caller's lease, only if it still holds it.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def owner_key(table_id: str) -> str:
    """The Redis key of a table's lease.

    >>> owner_key("abc")
    'paston:owner:abc'
    """
    return f"{PREFIX}owner:{table_id}"


class Leases:
    """The leases of one worker (``me``) in Redis (an ``redis.asyncio.Redis`` client
    that decodes responses); ``ttl`` is the lease's lifetime in seconds."""

    def __init__(self, redis: Any, me: str, ttl: float) -> None:
        self.redis = redis
        self.me = me
        self.ttl = ttl
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    @property
    def ttl_ms(self) -> int:
        return int(self.ttl * 1000)

    async def acquire(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it."""
        return bool(await self.redis.set(owner_key(table_id), self.me, nx=True, px=self.ttl_ms))

    async def renew(self, table_ids: Sequence[str]) -> list[str]:
        """Renew the leases on ``table_ids``; returns those this worker no longer holds."""
        if not table_ids:
            return []
        held = await self._renew(keys=[owner_key(t) for t in table_ids], args=[self.me, self.ttl_ms])
        return [t for t, ok in zip(table_ids, held, strict=True) if not ok]

    async def release(self, table_id: str) -> None:
        """Give the lease up (if this worker still holds it)."""
        await self._release(keys=[owner_key(table_id)], args=[self.me])

    async def owner(self, table_id: str) -> str | None:
        """The worker holding the table's lease, if any."""
        value = await self.redis.get(owner_key(table_id))
        return None if value is None else str(value)

    async def owners(self, table_ids: Sequence[str]) -> list[str | None]:
        """The workers holding the tables' leases (``None``: nobody)."""
        if not table_ids:
            return []
        return [
            None if v is None else str(v) for v in await self.redis.mget([owner_key(t) for t in table_ids])
        ]

    async def heartbeat(self) -> None:
        """Say this worker is alive (and forget workers silent for ten leases)."""
        now = time.time()
        key = f"{PREFIX}workers"
        await self.redis.zadd(key, {self.me: now})
        await self.redis.zremrangebyscore(key, "-inf", now - 10 * self.ttl)

    async def live_workers(self) -> list[str]:
        """The workers that said they were alive within one lease's time."""
        now = time.time()
        return [str(w) for w in await self.redis.zrangebyscore(f"{PREFIX}workers", now - self.ttl, "+inf")]
