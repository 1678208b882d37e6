"""Real-browser test of ``mlfs app``: the CLI starts the dashboard from any folder.

Skipped when Playwright or Chromium is missing, unless ``CI`` is set (then it
fails), like the other browser tests.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from mlfs_core import blas
from uitest.browser import check_first_page, guarded_page
from uitest.server import free_port, local_url, serving

pytestmark = pytest.mark.browser


@pytest.fixture
def mlfs_app(tmp_path):
    """``mlfs app --server.port P ...`` started in an empty folder.

    Yields the URL, the server's pid and its log file.
    """
    port = free_port()
    log_path = tmp_path / "app.log"
    env = dict(os.environ, MLFS_WORK_DIR=str(tmp_path / "work"))
    env.pop("OPENBLAS_CORETYPE", None)  # mlfs app must set it for the server
    env.pop("MLFS_DATA_DIR", None)
    command = [sys.executable, "-m", "mlfs_core", "app", "--server.port", str(port)]
    command += ["--server.address", "127.0.0.1", "--server.fileWatcherType", "none"]
    with serving(command, port, cwd=tmp_path, env=env, log=log_path) as proc:
        yield local_url(port), proc.pid, log_path


def test_mlfs_app_serves_the_first_page_with_the_shipped_settings(browser, mlfs_app):
    """Check the first page renders, flags pass through, the settings and pin apply."""
    url, pid, log_path = mlfs_app
    page = guarded_page(browser)
    try:
        check_first_page(page, url)
    finally:
        page.context.close()
    # mlfs app execs Streamlit: the process is the server, run on app.py
    cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    assert b"streamlit" in cmdline and cmdline[4].endswith(b"app.py")
    assert b"--server.port" in cmdline
    # the settings that matter are flags too (a ~/.streamlit file cannot undo
    # them): magic off; the address given here (127.0.0.1) kept, not doubled
    assert cmdline[cmdline.index(b"--runner.magicEnabled") + 1] == b"false"
    assert cmdline.count(b"--server.address") == 1
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    kernel = blas.pinned_kernel()
    if kernel is not None:
        assert f"{blas.CORETYPE}={kernel}".encode() in environ
    # .streamlit/config.toml beside app.py is read from another folder too:
    # its serverAddress is the address the server prints
    assert f"URL: http://localhost:{url.rsplit(':', 1)[1]}" in log_path.read_text()
