"""Check that a running MLFS Explorer server renders its first page in Chromium.

CI's wheel job runs it against ``mlfs app`` installed from the wheel::

    python tests/app/check_render.py http://127.0.0.1:PORT

It exits 0 when the Data page of the bundled sample shows with the router's
sidebar, a chart and no exception, console error or off-machine request
(``check_first_page`` of ``tests/app/browser.py``), and 1 otherwise.
"""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path


def _browser_helpers():
    """``tests/app/browser.py``, imported as part of a package named for its folder.

    (``import tests.app`` is not reliable: some dependencies install a
    top-level ``tests`` package.)
    """
    package = types.ModuleType("_mlfs_app_tests")
    package.__path__ = [str(Path(__file__).resolve().parent)]
    sys.modules.setdefault(package.__name__, package)
    return importlib.import_module(f"{package.__name__}.browser")


def main(argv: list[str] | None = None) -> int:
    """Check the server at ``argv[0]``; print the outcome; return the exit status."""
    from playwright.sync_api import Error, expect, sync_playwright

    helpers = _browser_helpers()

    (url,) = sys.argv[1:] if argv is None else argv
    expect.set_options(timeout=60_000)  # a cold first run imports the engine
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=helpers.CHROMIUM, headless=True, args=helpers.CHROMIUM_ARGS
        )
        page = helpers.guarded_page(browser)
        try:
            helpers.check_first_page(page, url)
        except (AssertionError, Error) as exc:
            text = page.locator("body").inner_text(timeout=5_000)
            print(f"first page of {url} did not render: {exc}", file=sys.stderr)
            print(f"the page shows:\n{text}", file=sys.stderr)
            return 1
        finally:
            browser.close()
    print(f"first page of {url} rendered")
    return 0


if __name__ == "__main__":
    sys.exit(main())
