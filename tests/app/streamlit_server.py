"""The one command line that serves the app for browser tests and bench/bench_app.py."""

from __future__ import annotations

import sys


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
