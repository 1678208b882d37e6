"""Where the server listens: this machine only, or the network with --classroom
(issue 43 item 12), and ``mlfs app``'s workspace options."""

from __future__ import annotations

import os
import socket
import sys

import pytest

from mlfs_core.cli import app, main
from tests.conftest import ROOT
from uitest.server import free_port, serving


def _listening(port: int) -> set[str]:
    """The local addresses listening on TCP ``port`` (from /proc/net/tcp{,6})."""
    found = set()
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, hexport = local.split(":")
            if state != "0A" or int(hexport, 16) != port:  # 0A = LISTEN
                continue
            if width == 8:
                found.add(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
            else:
                raw = b"".join(
                    bytes.fromhex(address[i : i + 8])[::-1] for i in range(0, 32, 8)
                )
                found.add(socket.inet_ntop(socket.AF_INET6, raw))
    return found


def test_streamlit_run_app_listens_on_this_machine_only(tmp_path):
    """Check: `streamlit run app.py` with no address flag (the config.toml's
    address) listens on 127.0.0.1 only, not on every interface."""
    if not os.path.exists("/proc/net/tcp"):
        pytest.skip("no /proc/net/tcp to read the listening sockets from")
    port = free_port()
    env = dict(os.environ, MLFS_WORK_DIR=str(tmp_path / "work"))
    command = [sys.executable, "-m", "streamlit", "run", "app.py"]
    command += ["--server.port", str(port), "--server.fileWatcherType", "none"]
    with serving(command, port, cwd=ROOT, env=env):
        assert _listening(port) == {"127.0.0.1"}


def test_server_flags_are_local_unless_classroom_or_the_user_says():
    """Check: mlfs app adds 127.0.0.1 by default, 0.0.0.0 with --classroom,
    keeps a user's own --server.address, and always turns magic off."""
    local = app.server_flags([], classroom=False)
    assert local[:2] == ["--server.address", "127.0.0.1"]
    assert ["--runner.magicEnabled", "false"] == local[2:4]
    room = app.server_flags(["--server.port", "9000"], classroom=True)
    assert room[2:4] == ["--server.address", "0.0.0.0"]
    mine = app.server_flags(["--server.address=10.0.0.5"], classroom=True)
    assert "0.0.0.0" not in mine and "127.0.0.1" not in mine


def _exec_capture(monkeypatch, argv):
    calls = []

    def fake_execv(path, command):
        calls.append((list(command), dict(os.environ)))
        raise SystemExit(0)

    monkeypatch.setattr(app.os, "execv", fake_execv)
    with pytest.raises(SystemExit):
        main(argv)
    return calls[0]


def test_classroom_prints_the_address_to_give_students(monkeypatch, capsys):
    """Check: --classroom listens on 0.0.0.0, prints http://<LAN address>:<port>
    and passes that address as the browser address Streamlit prints."""
    monkeypatch.setattr(app, "lan_address", lambda: "192.168.1.20")
    for name in app.LIMITS.values():
        monkeypatch.delenv(name, raising=False)
    command, env = _exec_capture(
        monkeypatch,
        ["app", "--classroom", "--server.port", "8600", "--workspace-mb", "50"],
    )
    out = capsys.readouterr().out
    assert "Give students this address: http://192.168.1.20:8600" in out
    assert command[command.index("--server.address") + 1] == "0.0.0.0"
    assert command[command.index("--browser.serverAddress") + 1] == "192.168.1.20"
    assert env["MLFS_WORKSPACE_MB"] == "50.0"
    for name in app.LIMITS.values():
        os.environ.pop(name, None)


def test_lan_address_is_not_loopback():
    """Check: the address printed for students is never a loopback address."""
    address = app.lan_address()
    assert address and not address.startswith("127.") and address != "0.0.0.0"


def test_clear_workspaces_empties_them_and_starts_no_server(
    monkeypatch, tmp_path, capsys
):
    """Check: mlfs app --clear-workspaces removes every workspace and exits 0."""
    monkeypatch.setenv("MLFS_WORK_DIR", str(tmp_path))
    for name in ("a" * 22, "b" * 22):
        (tmp_path / "workspaces" / name / "uploads").mkdir(parents=True)
    monkeypatch.setattr(app.os, "execv", lambda *a: pytest.fail("server started"))
    assert main(["app", "--clear-workspaces"]) == 0
    assert list((tmp_path / "workspaces").iterdir()) == []
    assert "removed 2 workspace(s)" in capsys.readouterr().out
