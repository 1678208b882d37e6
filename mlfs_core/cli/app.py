"""The ``mlfs app [STREAMLIT FLAGS ...]`` sub-command: start the dashboard.

It runs ``streamlit run`` on the app's entry script, :func:`app_script`: the
checkout's top-level ``app.py`` beside the ``mlfs_core`` package, or in an
installed wheel the copy in the ``mlfs_app`` folder beside it, which holds
the pages, ``ui/`` and the shipped ``.streamlit/config.toml`` (Streamlit
reads a ``.streamlit/config.toml`` beside the entry script). Every further
argument is a Streamlit flag and is passed through, for example
``mlfs app --server.port 8600``.

Streamlit runs in place of this process (``exec``), with OpenBLAS's kernel
pinned in its environment (:func:`mlfs_core.blas.pinned_environment`), so
the server computes what the engine computes everywhere else.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from .. import blas

PACKAGE = Path(__file__).resolve().parents[1]  # mlfs_core
INSTALLED_APP = "mlfs_app"
"""The folder that holds the app in an installed wheel, beside ``mlfs_core``."""


def app_script() -> Path:
    """The app's entry script: the checkout's ``app.py``, else the installed one.

    Returns
    -------
    Path
        ``app.py`` beside the ``mlfs_core`` package (a checkout, or an
        editable install), else ``mlfs_app/app.py`` beside it (a wheel).

    Raises
    ------
    FileNotFoundError
        If neither exists.

    Examples
    --------
    >>> app_script().name
    'app.py'
    """
    for script in (
        PACKAGE.parent / "app.py",
        PACKAGE.parent / INSTALLED_APP / "app.py",
    ):
        if script.is_file():
            return script
    raise FileNotFoundError(
        f"the app is not installed: no app.py beside {PACKAGE} "
        f"nor in {PACKAGE.parent / INSTALLED_APP}"
    )


def streamlit_command(script: Path, flags: Sequence[str]) -> list[str]:
    """The command line that starts Streamlit on ``script`` with ``flags``.

    Examples
    --------
    >>> cmd = streamlit_command(Path("app.py"), ["--server.port", "8600"])
    >>> cmd[1:]
    ['-m', 'streamlit', 'run', 'app.py', '--server.port', '8600']
    """
    return [sys.executable, "-m", "streamlit", "run", str(script), *flags]


def run_app_command(args: argparse.Namespace) -> int:
    """Run ``mlfs app``: replace this process by the Streamlit server.

    ``args.streamlit_flags`` holds the arguments after ``app``. Returns the
    server's exit status where ``exec`` is not available (Windows).
    """
    command = streamlit_command(app_script(), args.streamlit_flags)
    os.environ.update(blas.pinned_environment())
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(command[0], command)  # pragma: no cover - does not return
    return subprocess.call(command)  # pragma: no cover - Windows


def add_app_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``app`` sub-command; its unknown arguments go to Streamlit."""
    p = subparsers.add_parser(
        "app",
        help="start the dashboard (Streamlit); further flags go to `streamlit "
        "run`, e.g. --server.port 8600",
        description="Start the dashboard on the bundled sample: `streamlit run` on "
        "the app's app.py, with its .streamlit settings. Every further argument "
        "is a Streamlit flag (see `streamlit run --help`).",
        allow_abbrev=False,
    )
    p.set_defaults(func=run_app_command, streamlit_flags=[], pass_through=True)
    return p
