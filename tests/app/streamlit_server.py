"""Serving the app for browser tests and the bench scripts: one command line,
one way to start a server, wait for its health and stop it.

No pytest here: ``bench/bench_app.py`` and ``bench/bench_classroom.py`` import
this module too (by path).
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

CHART_PAGES = (
    ("Rank features", "Rank features"),
    ("Average ranks", "Average ranks"),
    ("Similarity", "Similarity of selected subsets"),
    ("Metric vs budget", "Metric vs number of selected features"),
    ("A score, step by step", "A score, step by step"),
    ("An aggregation, step by step", "An aggregation, step by step"),
    ("A greedy step", "A greedy step"),
    (
        "Sparse regression, iteration by iteration",
        "Sparse regression, iteration by iteration",
    ),
)
"""(sidebar entry, page heading) of each page after Data that draws a chart."""


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
