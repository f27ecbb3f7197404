"""File handles for a server: as many as the system lets this process have, and how
many connections to take at once with them.

Every connection costs a file handle, and so do the database, the worker processes'
pipes and the files the server reads. Many systems start a process with a soft limit of
1,024 handles and a hard limit far above: :func:`raise_open_files` raises the soft limit
to the hard one (which needs no privilege), and :func:`connection_limit` leaves
:data:`RESERVED` handles for everything that is not a connection.

>>> connection_limit(1024), connection_limit(100)
(768, 64)
>>> soft, hard = raise_open_files()
>>> soft == hard or soft >= 1 << 20
True
"""

from __future__ import annotations

#: Handles kept for what is not a client's connection (database, pipes, files, logs).
RESERVED = 256
#: Connections taken at least, however few handles there are.
MIN_CONNECTIONS = 64
#: The soft limit set when the hard one is unlimited.
UNLIMITED_SOFT = 1 << 20


def raise_open_files() -> tuple[int, int]:
    """Raise this process's soft limit of open files to its hard limit; returns the
    limits now (soft, hard). Where there are no such limits (Windows) or the system
    refuses, nothing changes (``(0, 0)`` without limits)."""
    try:
        import resource
    except ImportError:  # not on a POSIX system
        return (0, 0)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = UNLIMITED_SOFT if hard == resource.RLIM_INFINITY else hard
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return (soft, hard)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):  # macOS caps the soft limit lower: keep what there is
        return (soft, hard)
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def connection_limit(soft: int) -> int:
    """Connections to take at once with ``soft`` open files: all but :data:`RESERVED`
    of them, and at least :data:`MIN_CONNECTIONS`."""
    return max(MIN_CONNECTIONS, soft - RESERVED)
