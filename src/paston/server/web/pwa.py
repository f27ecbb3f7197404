"""The installable web app: the service worker at ``/sw.js`` and the offline page at
``/offline.html``; the manifest (``static/manifest.webmanifest``, linked from
``index.html``) is one of the client files under ``/static/<version>/``.

The worker's source is ``static/sw.js``; the server fills in what it needs to know, once
at start: the client files' version (:func:`~paston.server.web.http.static_version`,
the same as in their addresses), which names its cache, and the shell to cache, every
file of ``static/`` at its versioned address plus the pages ``/`` and ``/offline.html``.
A new version of the client is a new worker (browsers compare its bytes), which caches
the new shell and deletes the old caches; see the comment at the top of ``sw.js``.

>>> shell_addresses(["app.js", "sw.js", "style.css"], "0123456789ab")
['/', '/offline.html', '/static/0123456789ab/app.js', '/static/0123456789ab/style.css']
>>> cache_name("0123456789ab")
'paston-shell-0123456789ab'
"""

from __future__ import annotations

import json
import mimetypes
import re
from collections.abc import Iterable
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response

from paston.server.web.http import page_response, static_version, versioned_page

#: The worker's source in ``static/``; it is served at the root (its scope: the whole site).
WORKER = "sw.js"
#: The pages cached besides the files: the lobby (every page of the client is the same
#: document, but only the lobby works without the server) and the offline page.
SHELL_PAGES = ("/", "/offline.html")
CACHE_PREFIX = "paston-shell-"
#: What the server replaces in ``sw.js``: the object between the two comments.
BUILD = re.compile(r"/\*BUILD\*/.*?/\*END\*/", re.DOTALL)
#: The worker's answer: never cached (a browser checks for a new worker at every visit
#: anyway, but an HTTP cache between must not keep an old one), allowed the root scope.
WORKER_HEADERS = {"cache-control": "no-cache", "service-worker-allowed": "/"}

# the manifest's own media type (some systems' mime.types lack it): for StaticFiles
mimetypes.add_type("application/manifest+json", ".webmanifest")


def cache_name(version: str) -> str:
    """The worker's cache for one version of the client."""
    return CACHE_PREFIX + version


def shell_files(static: Path) -> list[str]:
    """Every file of the client (``static/``, relative, ``/``-separated), in order."""
    return sorted(p.relative_to(static).as_posix() for p in static.rglob("*") if p.is_file())


def shell_addresses(files: Iterable[str], version: str) -> list[str]:
    """What the worker caches at install: the shell pages, then each file (but the worker
    itself) at its versioned address."""
    return [*SHELL_PAGES, *(f"/static/{version}/{name}" for name in files if name != WORKER)]


def worker_script(static: Path, version: str | None = None) -> str:
    """``static/sw.js`` with its ``BUILD`` filled in: the version (default: computed from
    ``static``) and the shell's addresses. Raises ``ValueError`` if the source has no
    ``/*BUILD*/ … /*END*/`` to fill."""
    version = version or static_version(static)
    source = (static / WORKER).read_text(encoding="utf-8")
    build = json.dumps({"version": version, "shell": shell_addresses(shell_files(static), version)})
    filled, count = BUILD.subn(lambda _: build, source, count=1)
    if count != 1:
        raise ValueError(f"{static / WORKER} has no /*BUILD*/ … /*END*/ for the server to fill")
    return filled


def install_pwa(app: FastAPI, static: Path) -> None:
    """``GET /sw.js`` and ``GET /offline.html`` for ``app``, whose client files
    (:func:`~paston.server.web.http.install_http`) are those of ``static``."""
    version: str = getattr(app.state, "static_version", None) or static_version(static)
    script = worker_script(static, version)
    offline = versioned_page(static / "offline.html", version)

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        return Response(script, media_type="text/javascript; charset=utf-8", headers=WORKER_HEADERS)

    @app.get("/offline.html", include_in_schema=False)
    async def offline_page() -> HTMLResponse:
        return page_response(offline)
