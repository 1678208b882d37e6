"""One writer per output folder: a lock file naming the run that writes there.

``mlfs experiment --out DIR`` and the app's experiment runs hold
``DIR/.mlfs-lock`` while they run: a small JSON file with the process id, the
host name, the start time and the command. A second run into the same folder
is refused with a message naming the running one. A lock whose process is no
longer alive (on this host) is taken over, with a note: a run stopped by
``kill -9`` or a power cut does not block its folder forever. A lock written
on another host cannot be checked from here and is never taken over: remove
it by hand once that run is known to be gone.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from ....errors import ConfigError, DiskFullError

LOCK_NAME = ".mlfs-lock"
"""The lock file's name in an output folder."""


class FolderBusy(ConfigError):
    """Another live run holds the output folder's lock."""


def _pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this host (a zombie counts as gone).

    Examples
    --------
    >>> _pid_alive(os.getpid())
    True
    """
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OverflowError:
        return False
    try:  # a zombie (exited, not yet reaped) holds nothing
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return fh.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return True


def describe(holder: dict) -> str:
    """``pid 123 on host h, started 2026-01-01T10:00:00Z (mlfs experiment ...)``."""
    what = f"pid {holder.get('pid')} on host {holder.get('host')}"
    if holder.get("started"):
        what += f", started {holder['started']}"
    if holder.get("command"):
        what += f" ({holder['command']})"
    return what


def _read(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _stale(holder: dict | None, path: Path) -> bool:
    if holder is None:  # unreadable: being written, or garbage left behind
        try:
            return time.time() - path.stat().st_mtime > 10
        except OSError:
            return True
    pid = holder.get("pid")
    if holder.get("host") != socket.gethostname():
        return False
    return not (isinstance(pid, int) and _pid_alive(pid))


def _write_record(fd: int, path: Path, text: str) -> None:
    """Write the lock's record into its new file (removed again on a failure)."""
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        path.unlink(missing_ok=True)
        if exc.errno != errno.ENOSPC:
            raise
        raise DiskFullError(
            f"no space left on device writing the lock file {path}", str(path)
        ) from None


@contextmanager
def output_lock(folder, command: str = "", *, note=None) -> Iterator[dict]:
    """Hold ``folder``'s lock while the block runs (the folder is created).

    Parameters
    ----------
    folder : path
        The output folder.
    command : str
        What runs, recorded in the lock (e.g. ``"mlfs experiment cfg.toml"``).
    note : callable, optional
        ``note(text)`` is told when a dead run's lock is taken over (default:
        a line on stderr).

    Yields
    ------
    dict
        This run's lock record (``pid``, ``host``, ``started``, ``command``).

    Raises
    ------
    FolderBusy
        When a live run holds the folder (the message names it).
    DiskFullError
        When the device has no room for the lock file (naming it).
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_NAME
    record = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "started": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": command,
    }
    text = json.dumps(record)
    for _ in range(5):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            holder = _read(path)
            if not _stale(holder, path):
                shown = describe(holder) if holder else "a run starting now"
                raise FolderBusy(
                    f"{folder} is being written by another run: {shown}; wait for "
                    f"it to finish or choose another folder (lock file {path})"
                ) from None
            # take the dead run's lock over: only one of several takers wins
            taken = path.with_name(f"{LOCK_NAME}.{os.getpid()}.stale")
            try:
                os.replace(path, taken)
            except FileNotFoundError:
                continue
            gone = _read(taken)
            taken.unlink(missing_ok=True)
            told = describe(gone) if gone else "an unreadable lock"
            message = f"note: took over the lock of a run that is gone ({told})"
            if note is None:
                print(message, file=sys.stderr)
            else:
                note(message)
            continue
        _write_record(fd, path, text)
        break
    else:  # pragma: no cover - five races lost in a row
        raise FolderBusy(f"{folder}: could not take the lock {path}")
    try:
        yield record
    finally:
        if _read(path) == record:
            path.unlink(missing_ok=True)
