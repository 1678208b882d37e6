"""The app shows a user's code error as the engine words it: an st.error naming
the method, its file and line, never a traceback or "internal error"."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _page():
    import numpy as np

    from mlfs_core.selectors import rank_features, register
    from ui import widgets

    def MLFisher(X, Y, *, k, random_state):
        return np.zeros(X.shape[1]) / 0 + 1 / 0

    from mlfs_core.selectors import unregister

    register(MLFisher, name="AppFisher", version="1")
    try:  # the registry is the process's: the crashing method must not outlive this
        X = np.eye(4, dtype=int)
        widgets.call_or_error("Could not rank", rank_features, X, X, "AppFisher", k=2)
    finally:
        unregister("AppFisher")


def test_call_or_error_names_the_method_file_and_line():
    """Check the st.error carries the method, the file:line and the exception."""
    at = AppTest.from_function(_page).run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    (error,) = at.error
    assert error.value.startswith("Could not rank: method 'AppFisher' (")
    assert "raised ZeroDivisionError: division by zero" in error.value
    assert "internal error" not in error.value
    import mlfs_core

    assert "AppFisher" not in mlfs_core.list_methods()  # other tests never see it
