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

The server listens on this machine only (127.0.0.1), with the settings of
the app's ``.streamlit/config.toml`` that matter passed as flags too (a
``~/.streamlit`` file or a ``STREAMLIT_*`` variable cannot turn them off).
``--classroom`` listens on the network on purpose (0.0.0.0) and prints the
address to give students. ``--clear-workspaces`` removes every user's
workspace (uploads, runs) and exits; ``--workspace-mb``,
``--workspaces-total-mb`` and ``--workspace-days`` bound them
(docs/user-guide/classroom.md).
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from .. import blas

PACKAGE = Path(__file__).resolve().parents[1]  # mlfs_core
_INSTALLED_APP = "mlfs_app"
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
        PACKAGE.parent / _INSTALLED_APP / "app.py",
    ):
        if script.is_file():
            return script
    raise FileNotFoundError(
        f"the app is not installed: no app.py beside {PACKAGE} "
        f"nor in {PACKAGE.parent / _INSTALLED_APP}"
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


_LOCAL_ADDRESS = "127.0.0.1"
_NETWORK_ADDRESS = "0.0.0.0"
_FIXED_FLAGS = (
    ("--runner.magicEnabled", "false"),  # no bare expression printed on a page
    ("--browser.gatherUsageStats", "false"),
    ("--server.headless", "true"),
)
"""Settings of the app's config.toml that ``mlfs app`` always passes as flags."""
LIMITS = {
    "workspace_mb": "MLFS_WORKSPACE_MB",
    "workspaces_total_mb": "MLFS_WORKSPACES_TOTAL_MB",
    "workspace_days": "MLFS_WORKSPACE_DAYS",
}


def _flag_value(flags: Sequence[str], name: str) -> str | None:
    """The value given to Streamlit flag ``name`` (``--a b`` or ``--a=b``)."""
    value = None
    for i, flag in enumerate(flags):
        if flag == name and i + 1 < len(flags):
            value = flags[i + 1]
        elif flag.startswith(name + "="):
            value = flag.split("=", 1)[1]
    return value


def lan_address() -> str:
    """This machine's address on its local network, found without any traffic.

    A UDP socket "connected" to a private address sends nothing; the kernel
    only picks the interface, whose address ``getsockname`` gives. Without a
    route (no network), the host name.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 9))  # no packet: UDP connect
            address = probe.getsockname()[0]
        except OSError:
            address = ""
    if address and not address.startswith("127.") and address != _NETWORK_ADDRESS:
        return address
    return socket.gethostname()


def server_flags(flags: Sequence[str], *, classroom: bool) -> list[str]:
    """The flags ``mlfs app`` passes to Streamlit: the user's, then its own.

    The address is 127.0.0.1 (this machine only) unless ``classroom`` (0.0.0.0,
    every interface) or the user gave ``--server.address``. Magic stays off.

    Examples
    --------
    >>> server_flags(["--server.port", "8600"], classroom=False)[:4]
    ['--server.port', '8600', '--server.address', '127.0.0.1']
    """
    out = list(flags)
    if _flag_value(flags, "--server.address") is None:
        address = _NETWORK_ADDRESS if classroom else _LOCAL_ADDRESS
        out += ["--server.address", address]
    for name, value in _FIXED_FLAGS:
        if _flag_value(flags, name) is None:
            out += [name, value]
    return out


def work_dir() -> Path:
    """The app's work dir (``MLFS_WORK_DIR``, as ``ui.state.work_dir`` reads it)."""
    default = Path.home() / ".cache" / "mlfs_explorer"
    return Path(os.environ.get("MLFS_WORK_DIR", default))


def _clear_workspaces(folder: Path | None = None) -> int:
    """Remove every user's workspace under ``folder / "workspaces"``; the count."""
    root = (work_dir() if folder is None else Path(folder)) / "workspaces"
    if not root.is_dir():
        return 0
    spaces = [p for p in root.iterdir() if p.is_dir()]
    for space in spaces:
        shutil.rmtree(space, ignore_errors=True)
    return len(spaces)


_APP_EXTRA = "pip install 'mlfs-explorer[app]'"
"""What installs the app's dependencies (the engine alone does not need them)."""


def check_app_installed() -> None:
    """Refuse ``mlfs app`` with one clear error when Streamlit is not installed.

    The base install is the engine and the command line; the app and its
    browser dependencies come with the ``app`` extra.

    Raises
    ------
    ConfigError
        Naming the extra to install.
    """
    import importlib.util

    from ..errors import ConfigError

    if importlib.util.find_spec("streamlit") is None:
        raise ConfigError(
            "the app is not installed (no streamlit here): install it with "
            f'{_APP_EXTRA} (from a checkout: pip install -e ".[app]")'
        )


def _run_app_command(args: argparse.Namespace) -> int:
    """Run ``mlfs app``: replace this process by the Streamlit server.

    ``args.streamlit_flags`` holds the arguments after ``app`` that are not
    ``mlfs app``'s own. Returns the server's exit status where ``exec`` is
    not available (Windows), 0 after ``--clear-workspaces``.
    """
    if args.clear_workspaces:
        count = _clear_workspaces()
        print(f"removed {count} workspace(s) from {work_dir() / 'workspaces'}")
        return 0
    for option, variable in LIMITS.items():
        value = getattr(args, option)
        if value is not None:
            if value <= 0:
                raise SystemExit(f"mlfs app: --{option.replace('_', '-')} must be > 0")
            os.environ[variable] = repr(value)
    check_app_installed()
    flags = server_flags(args.streamlit_flags, classroom=args.classroom)
    if args.classroom:
        port = _flag_value(flags, "--server.port") or "8501"
        address = lan_address()
        flags += ["--browser.serverAddress", address]
        print(
            "Classroom mode: the app listens on the network (every interface).\n"
            f"Give students this address: http://{address}:{port}\n"
            "Anyone on this network can open it; stop the server after class."
        )
    command = streamlit_command(app_script(), flags)
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
    p.add_argument(
        "--classroom",
        action="store_true",
        help="listen on the network (0.0.0.0) for a class and print the address "
        "to give students; without it the app listens on this machine only",
    )
    p.add_argument(
        "--clear-workspaces",
        action="store_true",
        help="remove every user's workspace (uploads, experiment runs) and exit",
    )
    p.add_argument(
        "--workspace-mb",
        type=float,
        help="largest size of one user's workspace, MB (MLFS_WORKSPACE_MB, 500)",
    )
    p.add_argument(
        "--workspaces-total-mb",
        type=float,
        help="largest size of all workspaces together, MB "
        "(MLFS_WORKSPACES_TOTAL_MB, 8000)",
    )
    p.add_argument(
        "--workspace-days",
        type=float,
        help="a workspace unused this many days is removed (MLFS_WORKSPACE_DAYS, 7)",
    )
    p.set_defaults(func=_run_app_command, streamlit_flags=[], pass_through=True)
    return p
