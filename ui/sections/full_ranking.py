"""Top-k rankings for the Rank page, and a full ranking on request.

Stepwise methods (the spec's ``stepwise``: the greedy filters, or a plug-in
that says so) cost one step per ranked feature, so the page asks only for the
features it shows; ranking every feature is a separate request with a
progress bar and a stop button. Other methods score all features at once and
are ranked in full straight away.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import mlfs_core
from mlfs_core.selectors import ranking_frame, ranking_progress

from .. import cached, widgets
from ..datasets import DatasetKey

_STORE = "rank_full_table"
_REQUEST = "rank_full_request"


def is_stepwise(method: str) -> bool:
    """Whether ``method`` picks one feature per step (its spec's ``stepwise``)."""
    return mlfs_core.get_method(method).stepwise


ORDER_SCORE = "order score"
"""Column title of a score that is only the position turned around (M, M-1, ...)."""


def is_order_only(method: str) -> bool:
    """Whether ``method``'s scores are only its order (its spec's ``score_kind``).

    RoR and RaR merge per-label ranks, Random and AF have no measure: their
    "score" is ``M - position + 1``, an order, not a strength.
    """
    return mlfs_core.get_method(method).score_kind == "order"


def tie_note(table: pd.DataFrame) -> str | None:
    """A sentence when several of the shown features share a non-zero score.

    Tied features are ordered by their index (the file's order), not by
    strength: MaxCS on medical gives its whole top 20 the same 978 (words in
    one document). Scores of 0 are left to the dense-data note.
    """
    scores = table["score"].astype(float)
    tied = int((scores.duplicated(keep=False) & (scores != 0)).sum())
    if tied < 2:
        return None
    return (
        f"{tied} of these {len(table)} features share their score with another: "
        "tied features are listed by feature index (the file's order), which says "
        "nothing about which is better."
    )


def display_table(
    table: pd.DataFrame, *, order_only: bool, n_features: int
) -> pd.DataFrame:
    """The columns the page shows: position, feature, score (no index column).

    The feature index is left out of the view (the CSV keeps it), so the
    score stays visible in half a 1024 px page. For a method whose scores
    are only an order, the column is the order score ``M - position + 1``
    (whatever numbers the method returned beside its order).
    """
    shown = table[["position", "feature", "score"]]
    if not order_only:
        return shown
    order = n_features - shown["position"].to_numpy(dtype=float) + 1
    return shown.drop(columns="score").assign(**{ORDER_SCORE: order})


def column_config(*, order_only: bool) -> dict:
    """Narrow position column and a compact score format for the ranking table."""
    score = ORDER_SCORE if order_only else "score"
    return {
        "position": st.column_config.NumberColumn("#", width="small"),
        "feature": st.column_config.TextColumn("feature", width="medium"),
        score: st.column_config.NumberColumn(
            score,
            format="%d" if order_only else "%.4g",
            help="M - position + 1: the order only" if order_only else None,
        ),
    }


def table_height(rows: int) -> int:
    """Pixel height that shows ``rows`` rows and the header without a scrollbar."""
    return 35 * (min(rows, 100) + 1) + 3


def top_ranking(
    key: DatasetKey, method: str, params: tuple, seed: int, k: int, *, what: str
) -> pd.DataFrame | None:
    """The ranking the page shows: top ``k`` for stepwise methods, else all."""
    wanted = k if is_stepwise(method) else None
    return widgets.call_or_error(
        what, cached.ranking, key, method, params, seed, wanted
    )


def full_ranking(
    key: DatasetKey, method: str, params: tuple, seed: int, *, n_features: int
) -> pd.DataFrame | None:
    """Every feature ranked, computed only when asked, with progress and stop.

    Returns None until the user asks (or after a stop); the last full ranking
    is kept in the session, so reruns do not recompute it.
    """
    ident = repr((key, method, params, seed))
    stored = st.session_state.get(_STORE)
    if stored is not None and stored[0] == ident:
        return stored[1]
    if st.button(f"Rank all {n_features} features", key="rank_full"):
        st.session_state[_REQUEST] = ident
    if st.session_state.get(_REQUEST) != ident:
        return None
    if st.button("Stop", key="rank_stop"):  # a click reruns: the ranking stops
        st.session_state.pop(_REQUEST, None)
        st.info("Full ranking stopped.")
        return None
    bar = st.progress(0.0, text=f"Ranking {n_features} features with {method} ...")

    def show(done: int, total: int) -> None:
        bar.progress(done / total, text=f"Ranked {done} of {total} features")

    with ranking_progress(show):
        table = widgets.call_or_error(
            f"{method} could not rank every feature",
            _rank_all,
            key,
            method,
            params,
            seed,
        )
    st.session_state.pop(_REQUEST, None)
    bar.empty()
    if table is not None:
        st.session_state[_STORE] = (ident, table)
    return table


def _rank_all(key: DatasetKey, method: str, params: tuple, seed: int) -> pd.DataFrame:
    ds = cached.load(key)
    result = mlfs_core.compute_ranking(
        ds.X, ds.Y, method, random_state=seed, **dict(params)
    )
    return ranking_frame(result, ds.feature_names)
