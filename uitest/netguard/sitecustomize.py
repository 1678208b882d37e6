"""Log the app server's outside connections (browser tests put this on PYTHONPATH).

Python imports ``sitecustomize`` at start-up; with ``MLFS_NET_LOG`` set, an
audit hook (PEP 578) appends one line per name lookup or socket connection to
a host that is not the machine itself: ``socket.getaddrinfo checkip.amazonaws.com``.
The browser tests assert that this log stays empty, so the server, not only the
page, is checked for requests leaving the machine.
"""

from __future__ import annotations

import os
import sys

_LOG = os.environ.get("MLFS_NET_LOG")
_LOCAL_NAMES = {"", "localhost", "0.0.0.0", "::", "::1"}


def _is_local(host: object) -> bool:
    if host is None:
        return True
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    host = str(host)
    return host in _LOCAL_NAMES or host.startswith(("127.", "/")) or "\0" in host


def _hook(event: str, args: tuple) -> None:
    if event == "socket.getaddrinfo":
        host = args[0]
    elif event == "socket.connect":
        address = args[1]
        host = address[0] if isinstance(address, tuple) else None  # unix socket
    else:
        return
    if not _is_local(host):
        with open(_LOG, "a", encoding="utf-8") as log:
            log.write(f"{event} {host}\n")


if _LOG:
    sys.addaudithook(_hook)
