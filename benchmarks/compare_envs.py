"""Revisions for ``compare.py``: a git revision (or ``.``, the working tree) resolved to a
commit, exported into the cache and installed (not editable) into a virtualenv of its own;
and a throwaway PostgreSQL cluster for the server benchmark.

Cache layout: ``<cache>/<key>/src`` (the exported tree), ``venv`` (its environment),
``build.log``, ``work`` (the benchmarks' working directory) and ``complete.json``, the
marker of a finished build. ``key`` is the commit for a revision; for ``.`` it is
``worktree-<HEAD>-<digest>``, the digest of the installed files' contents, so an unchanged
working tree is built once.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

MARKER = "complete.json"
#: What the benchmark scripts import beyond a revision's own dependencies (the TestClient
#: of hint_time.py and analysis_time.py; env_speed.py's arrays in revisions before numpy).
BENCH_PACKAGES = ("httpx2", "numpy")
#: Paths of the working tree that are not installed: a change there does not rebuild ``.``.
NOT_INSTALLED = ("benchmarks/", "tests/", "docs/", "examples/", ".ci/")

Log = Callable[[str], None]


class RevisionError(Exception):
    """A revision that git does not know, or an environment that could not be built."""


@dataclass(frozen=True)
class Revision:
    """A revision to measure: ``spec`` as given, its commit, its cache folder's name."""

    spec: str
    sha: str
    key: str
    worktree: bool = False
    """``.``: the working tree, uncommitted changes included."""

    @property
    def title(self) -> str:
        """``'6b8c8ab1f2c3 (HEAD)'``; the working tree adds its uncommitted changes."""
        if self.worktree:
            return f"{self.sha[:12]} + uncommitted changes (tree {self.key.rsplit('-', 1)[-1]})"
        return f"{self.sha[:12]} ({self.spec})"


@dataclass(frozen=True)
class Env:
    """A revision's interpreter and where its benchmarks run."""

    revision: Revision
    python: Path
    workdir: Path
    """An empty folder: run there, a script imports the installed package, not a ``src``."""
    scripts: Path
    """The revision's own ``benchmarks/`` (for ``--own-scripts``)."""
    paston_file: str
    built: str
    """``'built'``, ``'reused'`` or ``'given'`` (``--python-for``)."""


def git(repo: Path, *args: str) -> bytes:
    """A git command's output in ``repo`` (raises CalledProcessError on failure)."""
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True).stdout


def worktree_files(repo: Path) -> list[str]:
    """The working tree's files that git tracks or would track (not ignored), that exist."""
    listed = git(repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    names = sorted({n.decode() for n in listed.split(b"\0") if n})
    return [n for n in names if (repo / n).is_file()]


def tree_digest(repo: Path, files: list[str]) -> str:
    """A digest of the installed files' names and contents (not :data:`NOT_INSTALLED`)."""
    digest = hashlib.sha256()
    for name in files:
        if not name.startswith(NOT_INSTALLED):
            digest.update(name.encode() + b"\0" + (repo / name).read_bytes() + b"\0")
    return digest.hexdigest()


def resolve_revision(spec: str, repo: Path) -> Revision:
    """``spec`` (anything ``git rev-parse`` takes, or ``.``) as a :class:`Revision`."""
    if spec == ".":
        head = git(repo, "rev-parse", "HEAD").decode().strip()
        key = f"worktree-{head[:12]}-{tree_digest(repo, worktree_files(repo))[:12]}"
        return Revision(spec, head, key, worktree=True)
    try:
        sha = git(repo, "rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}").decode().strip()
    except subprocess.CalledProcessError:
        raise RevisionError(f"git knows no revision {spec!r} in {repo}") from None
    return Revision(spec, sha, sha)


def export_revision(revision: Revision, repo: Path, dest: Path) -> None:
    """Write the revision's files into ``dest``: ``git archive`` of its commit, or a copy
    of the working tree's files for ``.``."""
    dest.mkdir(parents=True, exist_ok=True)
    if revision.worktree:
        for name in worktree_files(repo):
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(repo / name, dest / name)
        return
    archive = git(repo, "archive", "--format=tar", revision.sha)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(dest, filter="data")


def paston_location(python: Path, workdir: Path) -> str:
    """Where ``python``, started in ``workdir``, imports ``paston`` from (or the error)."""
    done = subprocess.run(
        [str(python), "-c", "import paston; print(paston.__file__)"],
        cwd=workdir,
        env=bench_environ(),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return f"(cannot import paston: {(done.stderr.strip().splitlines() or ['?'])[-1]})"
    return done.stdout.strip()


def bench_environ() -> dict[str, str]:
    """The environment of a benchmark run: this one without PYTHONPATH (it would bring a ``src``)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def read_marker(folder: Path) -> dict[str, str] | None:
    """The finished build's marker, or None when the build is missing or incomplete."""
    try:
        marker = json.loads((folder / MARKER).read_text())
    except (OSError, ValueError):
        return None
    return marker if Path(marker.get("python", "")).exists() else None


#: extras every revision that defines them gets: the web server's (the server benchmarks
#: need it; before the light install it was part of the package itself)
ALWAYS_EXTRAS = ("server",)


def extras_for(src: Path, asked: str) -> str:
    """The extras to install from the revision at ``src``: those asked for and
    :data:`ALWAYS_EXTRAS`, keeping only the ones its ``pyproject.toml`` defines.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "pyproject.toml").write_text('[project.optional-dependencies]\\nenvs = []\\n')
    ...     extras_for(Path(d), "envs,ray")
    'envs'
    """
    with open(src / "pyproject.toml", "rb") as f:
        defined = tomllib.load(f).get("project", {}).get("optional-dependencies", {})
    wanted = [e.strip() for e in asked.split(",") if e.strip()] + list(ALWAYS_EXTRAS)
    return ",".join(dict.fromkeys(e for e in wanted if e in defined))


def install(folder: Path, extras: str) -> Path:
    """A fresh venv in ``folder/venv`` with ``folder/src`` installed (not editable) with
    the extras of :func:`extras_for`; its python."""
    extras = extras_for(folder / "src", extras)
    venv = folder / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True)
    if made.returncode != 0:
        raise RevisionError(f"python -m venv {venv} failed: {made.stderr.strip()[-500:]}")
    python = venv / "bin" / "python"
    target = f"{folder / 'src'}[{extras}]" if extras else str(folder / "src")
    with open(folder / "build.log", "w", encoding="utf-8") as out:
        done = subprocess.run(
            [str(python), "-m", "pip", "install", target, *BENCH_PACKAGES],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=folder,
            check=False,
        )
    if done.returncode != 0:
        tail = (folder / "build.log").read_text(errors="replace").splitlines()[-5:]
        raise RevisionError(f"pip install failed (see {folder / 'build.log'}):\n" + "\n".join(tail))
    return python


def imports_own_package(python: Path, workdir: Path) -> tuple[bool, str]:
    """Whether ``python`` (in ``workdir``) imports paston from inside its own venv, and from where."""
    location = paston_location(python, workdir)
    venv = python.absolute().parent.parent
    return Path(location).resolve().is_relative_to(venv.resolve()), location


def build_env(revision: Revision, repo: Path, folder: Path, extras: str, log: Log) -> Path:
    """Export and install the revision into ``folder`` and mark the build complete; its python."""
    shutil.rmtree(folder, ignore_errors=True)
    log(f"building {revision.spec} = {revision.title} into {folder} (pip install; the C cores compile)")
    start = time.perf_counter()
    export_revision(revision, repo, folder / "src")
    python = install(folder, extras)
    workdir = folder / "work"
    workdir.mkdir(exist_ok=True)
    own, location = imports_own_package(python, workdir)
    if not own:
        raise RevisionError(f"{python} imports paston from {location}, not from its own venv")
    marker = {"spec": revision.spec, "sha": revision.sha, "python": str(python), "paston": location}
    (folder / MARKER).write_text(json.dumps(marker, indent=1))
    log(f"built {revision.spec} in {time.perf_counter() - start:.0f} s")
    return python


def reusable_python(folder: Path, log: Log) -> Path | None:
    """The python of a complete earlier build in ``folder`` that imports its own paston, or None."""
    marker = read_marker(folder)
    if marker is None:
        return None
    python = Path(marker["python"])
    own, location = imports_own_package(python, folder / "work")
    if not own:
        log(f"the build in {folder} imports paston from {location}: building it again")
        return None
    return python


def prepare_env(
    revision: Revision, repo: Path, cache: Path, log: Log, *, python: Path | None = None, extras: str = ""
) -> Env:
    """The revision's environment: ``python`` when given, else a reused or a new build."""
    folder = cache / revision.key
    (folder / "work").mkdir(parents=True, exist_ok=True)
    if python is not None:
        built = "given"
    elif (python := reusable_python(folder, log)) is not None:
        built = "reused"
        log(f"reusing the environment of {revision.spec} = {revision.title} ({folder})")
    else:
        python, built = build_env(revision, repo, folder, extras, log), "built"
    own, location = imports_own_package(python, folder / "work")
    if built == "given":
        elsewhere = "" if own else " (not from its own venv: an editable install?)"
        log(f"{revision.spec} runs with {python}: paston from {location}{elsewhere}")
    scripts = repo / "benchmarks" if revision.worktree else folder / "src" / "benchmarks"
    if not revision.worktree and not scripts.exists():
        export_revision(revision, repo, folder / "src")  # its own scripts, for --own-scripts
    return Env(revision, python, folder / "work", scripts, location, built)


def postgres_bindir() -> Path | None:
    """The newest installed PostgreSQL server programs' folder, or None."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: p.parent.parent.name)
    return found[-1].parent if found else None


def as_postgres(args: list[str]) -> list[str]:
    """The command run as the postgres user when we are root (initdb refuses root)."""
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Postgres:
    """A running throwaway cluster on 127.0.0.1:``port``."""

    bindir: Path
    port: int

    @contextmanager
    def database(self, name: str) -> Iterator[str]:
        """A new empty database's URL, dropped afterwards."""
        client = ["-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]
        subprocess.run([str(self.bindir / "createdb"), *client, name], check=True, capture_output=True)
        try:
            yield f"postgresql://postgres@127.0.0.1:{self.port}/{name}"
        finally:
            drop = [str(self.bindir / "dropdb"), *client, "--if-exists", name]
            subprocess.run(drop, check=False, capture_output=True)


@contextmanager
def postgres_cluster(log: Log) -> Iterator[Postgres | None]:
    """A cluster started with initdb/pg_ctl in a temporary folder, stopped and removed
    afterwards; None (with a note) when PostgreSQL is not installed or does not start."""
    bindir = postgres_bindir()
    if bindir is None:
        log("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): its figures are skipped")
        yield None
        return
    folder = Path(tempfile.mkdtemp(prefix="paston-bench-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data, port = folder / "data", free_port()
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1"
    try:
        subprocess.run(
            as_postgres([str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]),
            check=True,
            capture_output=True,
        )
        start = [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "-o", options]
        subprocess.run(as_postgres([*start, "start"]), check=True, capture_output=True)
    except (subprocess.CalledProcessError, OSError) as error:
        log(f"PostgreSQL did not start ({error}): its figures are skipped")
        shutil.rmtree(folder, ignore_errors=True)
        yield None
        return
    log(f"PostgreSQL {bindir.parent.name} started on port {port} in {folder}")
    try:
        yield Postgres(bindir, port)
    finally:
        stop = [str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]
        subprocess.run(as_postgres(stop), check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
        log("PostgreSQL stopped")
