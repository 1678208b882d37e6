"""Check that a running MLFS Explorer server renders its first page in Chromium.

CI's wheel job runs it against ``mlfs app`` installed from the wheel::

    python tests/app/browser/check_render.py http://127.0.0.1:PORT

It exits 0 when the Data page of the bundled sample shows with the router's
sidebar, a chart and no exception, console error or off-machine request
(:func:`uitest.browser.check_first_page`), and 1 otherwise. It runs with the
test virtualenv, whose editable install makes :mod:`uitest` importable.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Check the server at ``argv[0]``; print the outcome; return the exit status."""
    from playwright.sync_api import Error, expect, sync_playwright

    from uitest.browser import check_first_page, guarded_page, launch

    (url,) = sys.argv[1:] if argv is None else argv
    expect.set_options(timeout=60_000)  # a cold first run imports the engine
    with sync_playwright() as p:
        browser = launch(p)
        page = guarded_page(browser)
        try:
            check_first_page(page, url)
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
