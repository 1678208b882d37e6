"""Serving the app for browser tests and the bench scripts: one command line,
one way to start a server, wait for its health and stop it, and a guard that
logs the server's outside connections.

No pytest here: the tests, ``bench/`` and ``docs/lessons_screenshots.py``
import this module.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

NETGUARD = Path(__file__).resolve().parent / "netguard"
"""The folder of the audit hook ``sitecustomize.py`` (see :func:`guarded_env`)."""


def streamlit_command(port: int) -> list[str]:
    """``streamlit run app.py``: headless on loopback ``port``, offline, no watcher."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        "app.py",
        "--server.headless",
        "true",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
        "--server.runOnSave",
        "false",
    ]


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def local_url(port: int) -> str:
    """The loopback URL of a server on ``port``."""
    return f"http://127.0.0.1:{port}"


def start(
    command: list[str], *, cwd, env: dict[str, str], log: Path | None = None
) -> subprocess.Popen:
    """Start ``command`` in a session of its own (so :func:`stop` ends its
    children too), its output into ``log`` (else discarded)."""
    with open(log, "wb") if log else contextlib.nullcontext() as out:
        return subprocess.Popen(
            command,
            cwd=cwd,
            stdout=out or subprocess.DEVNULL,
            stderr=subprocess.STDOUT if out else subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )


def wait_healthy(
    proc: subprocess.Popen, url: str, *, log: Path | None = None, timeout=60.0
) -> None:
    """Return once ``url``'s Streamlit health check answers ``ok``.

    Raises
    ------
    RuntimeError
        The server exited or is not healthy after ``timeout`` seconds (the
        message holds ``log``'s text).
    """
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited:\n{_text(log)}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"not healthy after {timeout} s:\n{_text(log)}")
        time.sleep(0.1)


def _text(log: Path | None) -> str:
    return log.read_text() if log else ""


def stop(proc: subprocess.Popen, timeout: float = 10) -> None:
    """End ``proc``'s process group: SIGTERM, then SIGKILL after ``timeout`` s."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@contextlib.contextmanager
def serving(
    command: list[str],
    port: int,
    *,
    cwd,
    env: dict[str, str],
    log: Path | None = None,
    timeout: float = 60.0,
) -> Iterator[subprocess.Popen]:
    """``command`` (a server on ``port``) running and healthy inside the block."""
    proc = start(command, cwd=cwd, env=env, log=log)
    try:
        wait_healthy(proc, local_url(port), log=log, timeout=timeout)
        yield proc
    finally:
        stop(proc)


def guarded_env(log: Path) -> dict[str, str]:
    """The environment of a server whose outside connections are logged to ``log``.

    ``uitest/netguard/sitecustomize.py`` (first on PYTHONPATH) installs an
    audit hook that writes each non-loopback name lookup or connection there.
    """
    log.touch()
    path = os.pathsep.join(
        p for p in (str(NETGUARD), os.environ.get("PYTHONPATH", "")) if p
    )
    return dict(os.environ, PYTHONPATH=path, MLFS_NET_LOG=str(log))


def outside_connections(log: Path) -> list[str]:
    """The lines of a ``guarded_env`` log: the server's outside connections."""
    return log.read_text().splitlines()
