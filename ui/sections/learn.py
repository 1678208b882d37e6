"""Text and widgets shared by the Learn pages (formulas as METHODS.md gives them)."""

from __future__ import annotations

import time

import streamlit as st

import mlfs_core
from mlfs_core.explain import readable, term_names
from mlfs_core.selectors import IT_METHODS, default_methods, families

from .. import cached, links, widgets
from ..choices import ordinal, plural
from ..datasets import DatasetKey

RANK_PAGE = "app_pages/rank.py"
EXPLAINED_MEASURES = ("chi2", "bns")
"""The per-label measures the Learn pages take apart (keys of
:data:`mlfs_core.measures.MEASURE_LABELS`): the score page shows the formula and
the numbers of these two, the aggregation page aggregates their scores."""
PRESENCE = "presence"
"""The ``binarize`` rule that counts a non-zero value as present."""
PRESENT_WHEN = {PRESENCE: "non-zero", "median": "above its median"}
"""The CS/BNS ``binarize`` rules and how the Learn pages name them."""


DENSE_CURE = (
    'choose "Feature present when: above its median" (binarize = "median": '
    "present = above the feature's median)"
)
"""What the dense-data note tells a Learn page's reader to do."""


def loaded_dataset() -> tuple[str, DatasetKey, list[str], list[str]]:
    """The sidebar's dataset, loaded, for a Learn page.

    A dataset that does not load shows its error and stops the page
    (``st.stop``); a dense-data note is shown apart, near the chart.

    Returns
    -------
    tuple
        ``(name, key, feature names, label names)``.
    """
    name, key = widgets.current_dataset()
    if not widgets.load_or_error(key, dense_note_apart=True):
        st.stop()
    _, features, labels = cached.names(key)
    return name, key, features, labels


def present_when(column, *, key: str) -> str:
    """The Learn pages' "Feature present when" radio in ``column``; its rule.

    ``key`` is also the radio's query parameter (:func:`ui.links.bound`).
    """
    return column.radio(
        "Feature present when",
        list(PRESENT_WHEN),
        format_func=PRESENT_WHEN.get,
        help='binarize = "median" suits dense numeric data.',
        **links.bound(key),
    )


CS_FORMULA = """\
Ppos = (tp + fn) / n,   Pneg = (fp + tn) / n,   t(c, e) = (c - e)^2 / e
CS = t(tp, (tp+fp) Ppos) + t(fn, (fn+tn) Ppos)
   + t(fp, (tp+fp) Pneg) + t(tn, (fn+tn) Pneg)
(a term whose expected count e is 0 contributes 0)"""

BNS_FORMULA = """\
tpr = tp / (tp + fn),   fpr = fp / (fp + tn)   (a rate with a zero denominator is 0)
clip both rates to [0.0005, 0.9995]
BNS = | F^-1(tpr) - F^-1(fpr) |   (F^-1: the standard normal quantile)"""

AGGREGATION_TEXT = {
    "Max": (
        "score_j = max_i S[i, j]",
        "Each feature keeps its best label score; features are taken by that "
        "score. A feature excellent for one label, even a rare one, ranks high.",
    ),
    "Mean": (
        "score_j = mean_i S[i, j]",
        "Each feature gets its average score over the labels. A feature good for "
        "many labels ranks high; one excellent for a single label is diluted.",
    ),
    "RoR": (
        "labels take turns in label order; each appends its best feature not yet taken",
        "Round-Robin (Forman 2004): every label gets the same number of turns, so "
        "every label gets features of its own, whatever its frequency.",
    ),
    "RaR": (
        "the next label is drawn with probability proportional to 1 / (its positives); "
        "it appends its best feature not yet taken",
        "Rand-Robin: like RoR, but rare labels get more turns. Labels without "
        "positives are never drawn; the draws use the sidebar seed.",
    ),
}

LEARN_DEFAULT = "learn"
"""The :attr:`~mlfs_core.MethodSpec.default_for` place of a Learn page's method."""


def greedy_methods() -> tuple[list[str], dict[str, str]]:
    """The methods a greedy step can show, family after family, and their titles.

    The page shows J(f | S) and records its terms, so it offers the registered
    methods that have a :attr:`~mlfs_core.MethodSpec.formula` and whose
    criterion the engine's greedy loop knows
    (:data:`mlfs_core.selectors.greedy.IT_METHODS`); families in
    :func:`mlfs_core.selectors.families` order, methods in registry order.
    """
    titles = dict(families())
    names = [
        name
        for family in titles
        for name in mlfs_core.list_methods(family)
        if mlfs_core.get_method(name).formula and name in IT_METHODS
    ]
    return names, {name: titles[mlfs_core.get_method(name).family] for name in names}


def first_default(names: list[str], place: str = LEARN_DEFAULT) -> int:
    """Index in ``names`` of the first method registered as a default for
    ``place`` (0 if none of them is)."""
    found = [n for n in default_methods(place) if n in names]
    return names.index(found[0]) if found else 0


def formula(text: str) -> None:
    """Show a formula of METHODS.md in readable notation (Σ, −, subscripts).

    The text goes through :func:`mlfs_core.explain.readable`, as the charts'
    legends and the tables' headers do, so every place writes a formula alike.
    """
    st.code(readable(text), language=None, wrap_lines=True)


def planted_note(
    key: DatasetKey, features: list[int], *, what: str, marked: bool = True
) -> set[int]:
    """Say how many of ``features`` are planted informative words; link the truth.

    ``what`` names the features ("the first 3 picks", see :func:`first_picks`);
    ``marked`` says whether the page marks them with ✓ (the note mentions the
    mark only then, and only when there is one).

    Returns the planted indices among ``features`` (empty without a truth file).
    """
    truth = cached.planted_truth(key)
    if not truth:
        return set()
    hits = set(features) & set(truth)
    of = f"the {plural(len(truth), 'planted informative word')}"
    if len(features) == 1:
        verdict = "is one of" if hits else "is not one of"
        text = f"**Planted truth:** {what} {verdict} {of}."
    else:
        verb = "is a planted word" if len(hits) == 1 else "are planted words"
        mark = "; marked ✓ below" if marked and hits else ""
        text = f"**Planted truth:** {len(hits)} of {what} {verb} (of {of}{mark})."
    st.markdown(text)
    st.page_link(
        RANK_PAGE,
        label="Planted-truth recovery of every method (Rank features)",
        icon=":material/target:",
    )
    return hits


def first_picks(n: int) -> str:
    """ "the first pick", "the first 3 picks" (no "the first 1 picks")."""
    return "the first pick" if n == 1 else f"the first {n} picks"


def feature_label(
    names: list[str], index: int, planted: set[int] | frozenset = frozenset()
) -> str:
    """``#index name`` (as on the charts' axes) with ✓ for a planted feature."""
    mark = " ✓" if index in planted else ""
    return f"#{index} {names[index]}{mark}"


def draw_seed(methods, seed: int) -> int:
    """``seed`` if one of ``methods`` draws at random (RaR), else 0.

    Only RaR uses the seed here, so the other aggregations keep one cache
    entry whatever the sidebar seed.
    """
    return seed if any(str(m).startswith("RaR") for m in methods) else 0


def step_text(
    aggregation: str, step: int, row, features: list, labels: list, previous=None
) -> str:
    """One aggregation step in words (a row of ``aggregation_steps``).

    ``previous`` is the score of the step before (Max and Mean): a tie with
    it, or a score of 0, is said, since the order is then the file's.
    """
    feature = features[int(row["feature"])]
    if aggregation in ("RoR", "RaR"):
        chance = (
            f" (drawn with probability {row['probability']:.3f})"
            if aggregation == "RaR"
            else ""
        )
        skipped = int(row["skipped"])
        extra = (
            f"; its {plural(skipped, 'better feature')} "
            f"{'was' if skipped == 1 else 'were'} already taken by other labels"
            if skipped
            else ""
        )
        return (
            f"Step {step}: it is **{labels[int(row['label'])]}**'s turn{chance}. It "
            f"takes its best feature not yet taken, **{feature}** (number "
            f"{int(row['position'])} in its own ranking{extra})."
        )
    if row["score"] == 0:
        return (
            f"Step {step}: **{feature}** scores 0 for every label, like every "
            "feature not yet taken: it comes next only because it comes first "
            "in the file (ties go to the lower feature index), not for its strength."
        )
    best = (
        f", the maximum coming from label **{labels[int(row['label'])]}**"
        if aggregation == "Max"
        else ""
    )
    tied = (
        " It ties with the pick before it: the lower feature index goes first."
        if previous is not None and previous == row["score"]
        else ""
    )
    return (
        f"Step {step}: **{feature}** has the {ordinal(step)}-highest "
        f"{aggregation.lower()} score, {row['score']:.4g}{best}.{tied}"
    )


def term_columns(columns, *, terms) -> dict:
    """Column settings of a greedy path table: each term headed by what it is.

    Headers name each term's role (relevance, label interaction, redundancy
    ..., :func:`mlfs_core.explain.term_names`); its formula, in readable
    notation, is the header's help. The numbers get a compact format, so
    step, feature, criterion and every term fit a 1024 px page.
    """
    config = {
        "criterion": st.column_config.NumberColumn(
            "J(f | S)", format="%.3g", help="the criterion value of the pick"
        )
    }
    for term, name in zip(terms, term_names(list(terms)), strict=True):
        if term in columns:
            config[term] = st.column_config.NumberColumn(
                name, format="%.3g", help=readable(str(term)), width="small"
            )
    return config


# ---- Play: step through a computation ---------------------------------------

PLAY_PAUSE = 1.2
"""Seconds each step stays on screen while a page plays."""
_NEXT = "_play_next_{}"
_STOP = "_play_stop_{}"
_ON = "_play_on_{}"


def playing(key: str, *, last=None) -> bool:
    """Whether the page is playing the widget ``key``; call before creating it.

    Sets the widget's value to the step that is due (Play, or the last
    step's :func:`play_next`), so this run shows it. A step older than a
    few pauses (the user left the page meanwhile) is shown, not played on.
    A kept step beyond ``last`` (fewer steps than when it was chosen, or a
    pasted link's) is brought back to ``last``; showing ``last`` ends the play.
    """
    kept = st.session_state.get(key)
    if last is not None and isinstance(kept, int) and kept > last:
        st.session_state[key] = last
    due = st.session_state.pop(_NEXT.format(key), None)
    stopped = st.session_state.pop(_STOP.format(key), False)
    on = False
    if due is not None:
        value, when = due
        st.session_state[key] = value
        fresh = time.monotonic() - when < 3 * PLAY_PAUSE + 5
        on = not stopped and fresh and (last is None or value != last)
    st.session_state[_ON.format(key)] = on
    return on


def stop_playing(key: str) -> None:
    """A widget callback: the user took over, the page stops playing ``key``."""
    st.session_state[_STOP.format(key)] = True


def _toggle(key: str, first, last, after) -> None:
    if st.session_state.get(_ON.format(key)):
        stop_playing(key)
        return
    current = st.session_state.get(key, first)
    start = first if current is None or current == last else after(current)
    st.session_state[_NEXT.format(key)] = (start, time.monotonic())


def play_button(
    column, key: str, *, is_playing: bool, first, last, after=None, what: str
) -> None:
    """Play (or, while playing, Pause) button stepping the widget ``key``.

    Play starts from the step after the shown one (from ``first`` when the
    last step is shown) and shows each step for :data:`PLAY_PAUSE` seconds
    up to ``last``; ``after`` gives the next value (default ``+ 1``). One
    button (key ``{key}_play``) whose label turns to Pause while playing.
    """
    column.button(
        "Pause" if is_playing else "Play",
        key=f"{key}_play",
        icon=":material/pause:" if is_playing else ":material/play_arrow:",
        on_click=_toggle,
        args=(key, first, last, after or (lambda v: v + 1)),
        help=f"Show {what} one after the other, {PLAY_PAUSE:g} s each.",
    )


def play_next(key: str, *, is_playing: bool, current, last, after=None) -> None:
    """At the end of a playing page: wait :data:`PLAY_PAUSE`, then show the next step.

    Does nothing unless ``is_playing`` and ``current`` is not yet ``last``.
    """
    if not is_playing or current == last:
        return
    time.sleep(PLAY_PAUSE)
    nxt = (after or (lambda v: v + 1))(current)
    st.session_state[_NEXT.format(key)] = (nxt, time.monotonic())
    st.rerun()
