"""The Experiment page's option grids: one method option tuned on an inner split.

The form's "Tune an option" box lets a user give one option of one chosen
method as a grid (``"0.001, 0.01, 0.1"`` for an ``alpha``), with the inner
split it is chosen on and the metric that chooses. :func:`with_grid` puts
the grid into the config (the method's ``params`` hold the list, the
``[tuning]`` table the inner split), so the engine chooses the value per
dataset and fold on an inner hold-out of that fold's training part, never on
a test part (:mod:`mlfs_core.evaluation.runner.plan.tuning`), and the run's
``tuning.csv`` reports the choices, which :func:`show_choices` shows with the
results.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd
import streamlit as st

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import (
    TUNING_FILE,
    ExperimentConfig,
    MethodConfig,
    TuningConfig,
    protocol_preset,
)
from mlfs_core.selectors import get_method

from .. import links

NONE = "(no grid)"
"""The method box's first choice: no option is tuned."""
EXAMPLES = {float: "0.001, 0.01, 0.1", int: "2, 3, 5", bool: "true, false"}
"""What the values box shows as an example, by the option's type."""


@dataclass(frozen=True)
class GridChoice:
    """What the box holds: a method's option given as comma-separated values.

    Attributes
    ----------
    method : str
        The method (one of the form's chosen methods).
    option : str
        Its option given as a grid.
    values : str
        The grid as typed, values separated by commas.
    test_size : str
        The inner split's validation fraction, as typed.
    metric : str
        The metric that chooses (the protocol's, best mean over the budgets).
    """

    method: str
    option: str
    values: str
    test_size: str
    metric: str


def tunable_options(method: str) -> list[str]:
    """The options of ``method`` a grid can take (every option of its spec)."""
    return [o.name for o in get_method(method).options]


def settings(methods: list[str], protocol: str) -> GridChoice | None:
    """Render the "Tune an option" box; None while no method is chosen in it."""
    candidates = [m for m in methods if tunable_options(m)]
    with st.expander("Tune an option on an inner split (a grid)"):
        st.caption(
            "Give one option of a chosen method as several values: on each "
            "dataset and fold the value with the best mean over the budgets "
            "is chosen on an inner hold-out of that fold's training part, "
            "never on its test part; the results then show the values chosen."
        )
        cols = st.columns([2, 2, 3])
        method = cols[0].selectbox(
            "Method", [NONE, *candidates], **links.bound("exp_grid_method")
        )
        if method == NONE or method not in candidates:
            return None
        spec = get_method(method)
        option = cols[1].selectbox(
            "Option", tunable_options(method), **links.bound("exp_grid_option")
        )
        declared = spec.option(option)
        values = cols[2].text_input(
            "Values (comma-separated)",
            placeholder=_example(declared),
            help=f"Allowed: {declared.describe()}.",
            **links.bound("exp_grid_values"),
        )
        left, right = st.columns(2)
        test_size = left.text_input(
            "Inner validation share",
            "0.3",
            help="The fraction of each outer training part the candidates are "
            "evaluated on (in (0, 1)); they rank features on the rest.",
            **links.bound("exp_grid_test_size"),
        )
        metric = right.selectbox(
            "Chosen by",
            list(protocol_preset(protocol).metrics),
            help="The metric whose mean over the budgets decides (its own "
            "direction); ties go to the value listed first.",
            **links.bound("exp_grid_metric"),
        )
    return GridChoice(method, option, values, test_size, metric)


def _example(option) -> str:
    """An example grid for ``option``: some of its choices, or typical numbers."""
    if option.choices is not None:
        return ", ".join(list(option.choices)[:3])
    return EXAMPLES.get(option.kind, "")


def parse_grid(choice: GridChoice) -> list:
    """The typed values of the grid box, each checked by the option.

    Raises
    ------
    ConfigError
        For an empty box, or a value the option does not allow (naming the
        method, the option and the value).

    Examples
    --------
    >>> parse_grid(GridChoice("PMU", "bins", "2, 3 ,5", "0.3", "micro_f1"))
    [2, 3, 5]
    """
    option = get_method(choice.method).option(choice.option)
    texts = [t.strip() for t in choice.values.split(",") if t.strip()]
    if not texts:
        raise ConfigError(
            f"grid of {choice.method}'s {choice.option}: give at least one value, "
            f"comma-separated (e.g. {_example(option) or 'a, b'})"
        )
    try:
        return list(dict.fromkeys(option.parse(t) for t in texts))
    except ConfigError as exc:
        raise ConfigError(f"grid of {choice.method}'s option: {exc}") from None


def with_grid(config: ExperimentConfig, choice: GridChoice | None) -> ExperimentConfig:
    """``config`` with the grid of ``choice`` in its method and its ``[tuning]``.

    Without a choice (or a method the config does not run) ``config`` as it
    is. The method keeps its other parameters (the form's ``binarize``).

    Raises
    ------
    ConfigError
        From :func:`parse_grid`, or for an inner validation share outside
        (0, 1).
    """
    if choice is None:
        return config
    grid = parse_grid(choice)
    try:
        test_size = float(choice.test_size)
    except ValueError:
        raise ConfigError(
            f"tuning.test_size must be a number in (0, 1), got {choice.test_size!r}"
        ) from None
    tuning = TuningConfig(test_size=test_size, metric=choice.metric)
    methods = []
    for m in config.methods:
        m = MethodConfig(m) if isinstance(m, str) else m
        if m.name == choice.method:
            m = replace(m, params={**m.params, choice.option: grid})
        methods.append(m)
    return replace(config, methods=tuple(methods), tuning=tuning)


def fill_from(config: ExperimentConfig) -> None:
    """Set the box from a loaded config: its first method option given as a
    grid, the inner split and the metric (the box is emptied without one)."""
    st.session_state["exp_grid_method"] = NONE
    for m in config.methods:
        if isinstance(m, str):
            continue
        names = [k for k, v in m.params.items() if isinstance(v, (list, tuple))]
        if names:
            tuning = config.tuning or TuningConfig()
            st.session_state["exp_grid_method"] = m.name
            st.session_state["exp_grid_option"] = names[0]
            grid = m.params[names[0]]
            st.session_state["exp_grid_values"] = ", ".join(_text(v) for v in grid)
            st.session_state["exp_grid_test_size"] = f"{tuning.test_size:g}"
            if tuning.metric is not None:
                st.session_state["exp_grid_metric"] = tuning.metric
            return


def _text(value) -> str:
    """A grid value as the box shows it (``true`` for True, 0.001, text)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{value:g}" if isinstance(value, float) else str(value)


def chosen_values(folder: str | Path) -> pd.DataFrame | None:
    """The run's ``tuning.csv`` (the values chosen), None when it has none."""
    path = Path(folder) / TUNING_FILE
    if not path.is_file():
        return None
    return pd.read_csv(path, dtype={"value": str})


def show_choices(folder: str | Path) -> None:
    """The values the engine chose for the grid, per dataset and fold, if any."""
    table = chosen_values(folder)
    if table is None or table.empty:
        return
    st.markdown("**Values chosen on the inner splits** (`tuning.csv`)")
    st.caption(choices_text(table))
    st.dataframe(table, hide_index=True)


def choices_text(table: pd.DataFrame) -> str:
    """One sentence: each tuned option's values chosen, and how often.

    Examples
    --------
    >>> t = pd.DataFrame({"method": ["RFS"] * 3, "option": ["gamma"] * 3,
    ...                   "value": ["0.1", "1.0", "0.1"]})
    >>> choices_text(t)
    'Chosen per dataset and fold: RFS gamma 0.1 (2x), 1.0 (1x).'
    """
    parts = []
    for (method, option), group in table.groupby(["method", "option"], sort=False):
        counts = group["value"].value_counts(sort=False)
        shown = ", ".join(f"{value} ({n}x)" for value, n in counts.items())
        parts.append(f"{method} {option} {shown}")
    return "Chosen per dataset and fold: " + "; ".join(parts) + "."
