"""Support for the app's browser tests and the bench scripts (not the app's API).

:mod:`uitest.server` serves the app (``streamlit run app.py`` on a free
loopback port, its health, its outside connections); :mod:`uitest.browser`
drives it in Chromium with Playwright. The tests (``tests/app``), ``bench/``
and ``docs/lessons_screenshots.py`` import them; nothing here imports pytest,
the engine or the app. An editable install (``pip install -e ".[test]"``)
makes the package importable; the wheel leaves it out (``setup.py``).
"""
