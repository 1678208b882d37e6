"""The Experiment page's engine side: config from widgets, run with progress, save.

The runner caches every task on disk under :func:`ui.state.work_dir`, so a
rerun with the same settings is instant, changing one method recomputes only
that method's tasks, and a stopped run resumes where it was.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from pathlib import Path

from mlfs_core.columns import MAX_N_ITER
from mlfs_core.errors import ConfigError
from mlfs_core.evaluation.config import (
    ClassifierConfig,
    DatasetSpec,
    ExperimentConfig,
    MethodConfig,
    config_from_toml,
    config_to_toml,
    protocol_preset,
    protocol_preset_names,
    protocol_preset_spec,
)
from mlfs_core.evaluation.outputs import (
    TIMINGS_FILE,
    estimate_output_bytes,
    write_atomically,
    write_run_files,
)
from mlfs_core.evaluation.runner import (
    ExperimentResult,
    execute_plan,
    plan_experiment,
    run_experiment,
)
from mlfs_core.evaluation.runner.lock import output_lock
from mlfs_core.evaluation.runner.trust import check_text_trusted
from mlfs_core.report import convergence_line
from mlfs_core.selectors import (
    METHODS,
    default_methods,
    families,
    get_method,
    list_methods,
)

from .. import cached, state
from ..datasets import DatasetKey

TEACHING_BUDGETS = {"percent": "10, 30, 50", "count": "1-20"}
"""The Experiment form's first budgets by the preset's budget unit (its first
folds are 3, its first methods :func:`teaching_methods`, from the registry)."""
SPLITS = ("repeated_holdout", "own", "holdout", "cv")
"""The splits the form offers for a preset that does not fix CV."""


def protocol_choices() -> dict[str, str]:
    """The protocol presets the form offers (the registry's, plug-ins' included):
    name -> its description.

    Those some method names as a teaching default (``"experiment-<name>"`` in
    :attr:`~mlfs_core.MethodSpec.default_for`) come first, in registry order,
    so the form opens on a preset with a teaching set; then the others.
    """
    names = protocol_preset_names()
    taught = [n for n in names if default_methods(f"experiment-{n}")]
    ordered = [*taught, *(n for n in names if n not in taught)]
    return {n: protocol_preset_spec(n).description for n in ordered}


def teaching_defaults(protocol: str) -> dict[str, str]:
    """The form's first budgets and folds for ``protocol`` (from its unit)."""
    unit = protocol_preset(protocol).budget_unit
    return {"budgets": TEACHING_BUDGETS[unit], "folds": "3"}


def budget_label(protocol: str) -> str:
    """The budgets box's label under ``protocol`` (its budget unit)."""
    if protocol_preset(protocol).budget_unit == "percent":
        return "Budgets (% of M)"
    return "Budgets (number of features)"


def split_options(protocol: str) -> list[str]:
    """The splits the form offers under ``protocol``, its own first; none when
    the preset fixes k-fold CV (its folds are then the only choice)."""
    own = protocol_preset(protocol).split
    if own == "cv":
        return []
    return [own, *(s for s in SPLITS if s != own)]


def uses_knn(protocol: str) -> bool:
    """Whether ``protocol`` evaluates with ML-kNN (the form then offers
    ML-kNN's scaling, and conventions where the preset discretizes)."""
    return protocol_preset(protocol).classifier.name == "mlknn"


def offers_evaluation(protocol: str) -> bool:
    """Whether the form offers conventions under ``protocol``: ML-kNN on
    discretized codes, the path conventions run on."""
    return uses_knn(protocol) and protocol_preset(protocol).discretize != "none"


def teaching_methods(protocol: str) -> list[str]:
    """The methods the Experiment form starts with for ``protocol``.

    Those registered with ``"experiment-<protocol>"`` in their
    :attr:`~mlfs_core.MethodSpec.default_for`, in registry order; for a
    preset no method names, the first two methods of the registry.
    """
    return default_methods(f"experiment-{protocol}") or list_methods()[:2]


def methods_by_family() -> tuple[list[str], dict[str, str]]:
    """Every registered method, family after family, and each one's family title.

    The families in :func:`mlfs_core.selectors.families` order (built-in
    first, then those of plug-ins), the methods of each in registry order.
    """
    titles = dict(families())
    names = [name for family in titles for name in list_methods(family)]
    return names, {name: titles[METHODS[name].family] for name in names}


def parse_budgets(text: str) -> tuple[float, ...]:
    """``"10, 30, 50"`` or ``"1-20"`` (or a mix) -> a sorted tuple of numbers.

    Whole numbers become ints; others stay as read (``"10.5"`` -> 10.5), so
    the engine, not this parser, decides: a percentage may be 10.5, a count
    may not (an error there, rather than a silent 10).
    """
    values: set[float] = set()
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        try:
            if "-" in part:
                lo, hi = (int(p) for p in part.split("-", 1))
                values.update(range(lo, hi + 1))
            else:
                value = float(part)
                values.add(int(value) if value.is_integer() else value)
        except ValueError:
            raise ConfigError(f"budgets: cannot read {part!r}") from None
    if not values:
        raise ConfigError("budgets: give at least one budget")
    return tuple(sorted(values))


FOLDS = ("Folds (CV)", 2, 10)
"""The folds box: its label and the whole numbers it allows."""
REPEATS = ("Random runs", 1, 5)
"""The random-runs box: its label and the whole numbers it allows."""
SEED = ("Seed (sidebar)", 0, 2**63 - 1)
"""The seed: 0 up to the largest integer a saved config (TOML) can hold."""


def whole_number(value: object, field: tuple[str, int, int]) -> int:
    """``value`` (a box's text or a number) as an int within ``field``'s range.

    Parameters
    ----------
    value : str, int or float
        What the box holds: ``"3"``, ``"1e9"``, ``7``.
    field : tuple
        ``(label, lowest, highest)``, e.g. :data:`FOLDS`.

    Returns
    -------
    int

    Raises
    ------
    ConfigError
        Naming the field, its allowed range and the value, when the value is
        not a whole number in the range: a run never goes on with another
        value than the one on the screen.

    Examples
    --------
    >>> whole_number("4", FOLDS)
    4
    >>> whole_number("1e9", FOLDS)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mlfs_core.errors.ConfigError: Folds (CV) must be ... from 2 to 10, not 1e9.
    """
    label, lo, hi = field
    text = str(value).strip()
    number = _as_int(text)
    if number is None or not lo <= number <= hi:
        raise ConfigError(
            f"{label} must be a whole number from {_spaced(lo)} to {_spaced(hi)}, "
            f"not {text or 'empty'}."
        )
    return number


def _as_int(text: str) -> int | None:
    """``text`` as an int (``"12"``, ``"1e9"``, ``"3.0"``), else None."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        real = float(text)
    except ValueError:
        return None
    if not math.isfinite(real) or not real.is_integer():
        return None
    return int(real)


def _spaced(number: int) -> str:
    """``9223372036854775807`` -> ``"9 223 372 036 854 775 807"`` (readable)."""
    return f"{number:,}".replace(",", " ")


def dataset_item(name: str, key: DatasetKey) -> object:
    """A config dataset: "sample", a path spec, or (uploads) the loaded Dataset."""
    if key.kind == "upload":
        return cached.load(key)
    if Path(key.path) == state.SAMPLE_DIR:
        return DatasetSpec(path="sample", name="sample")
    return DatasetSpec(
        path=key.path,
        name=name,
        labels=key.labels,
        label_count=key.label_count,
        label_prefix=key.label_prefix,
    )


def build_config(
    datasets: list[object],
    methods: list[str],
    *,
    protocol: str,
    budgets: str,
    folds: int | str,
    repeats: int | str,
    split: str,
    seed: int | str,
    scaling: str = "none",
    binarize: str = "presence",
    evaluation: str = "definition",
) -> ExperimentConfig:
    """An :class:`ExperimentConfig` from the page's widget values.

    ``protocol`` is a registered preset (:func:`protocol_choices`).
    ``scaling`` is the classifier-input scaling (``none``, ``l2-rows``,
    ``maxabs``) or, under a preset that evaluates with ML-kNN, ML-kNN's
    (``none``, ``minmax``); ``binarize`` goes to every method that takes it
    (the CS/BNS family: ``presence`` or ``median``); ``evaluation`` applies
    where :func:`offers_evaluation` (``ProtocolConfig.evaluation``:
    ``definition``, a preset of conventions or one convention alone).
    ``split`` is ignored under a preset that fixes CV.

    ``folds``, ``repeats`` and ``seed`` are checked against :data:`FOLDS`,
    :data:`REPEATS` and :data:`SEED` (:func:`whole_number`): a value out of
    range is a :class:`~mlfs_core.errors.ConfigError` naming the box and its
    range, never a run with some other value.
    """
    split = split if split_options(protocol) else "cv"
    n_folds = whole_number(folds, FOLDS) if split == "cv" else 3
    common = {
        "split": split,
        "n_folds": n_folds,
        "budgets": parse_budgets(budgets),
        "n_repeats": whole_number(repeats, REPEATS),
        "on_sparse_label": "ignore",
    }
    seed = whole_number(seed, SEED)
    if not uses_knn(protocol):
        proto = protocol_preset(protocol, scaling=scaling, **common)
    else:
        params = {**protocol_preset(protocol).classifier.params, "scaling": scaling}
        if offers_evaluation(protocol):
            common["evaluation"] = evaluation
        knn = ClassifierConfig("mlknn", params)
        proto = protocol_preset(protocol, classifier=knn, **common)
    return ExperimentConfig(
        datasets=tuple(datasets),
        methods=tuple(_with_binarize(m, binarize) for m in methods),
        protocol=proto,
        seed=seed,
        name="app",
    )


def _with_binarize(name: str, binarize: str):
    """``name`` as a method config carrying ``binarize`` when the method takes it."""
    if binarize == "presence" or "binarize" not in get_method(name).defaults:
        return name
    return MethodConfig(name, {"binarize": binarize})


def config_toml(config: ExperimentConfig) -> str | None:
    """The config as TOML, or None when it holds uploaded (in-memory) datasets."""
    try:
        return config_to_toml(config)
    except ConfigError:
        return None


def read_config(text: str) -> ExperimentConfig:
    """Parse an uploaded TOML config (ConfigError with the reason if invalid).

    A config naming plug-in code is refused before anything is imported: the
    server runs only plug-ins installed or given when it was started.
    """
    check_text_trusted(
        text,
        state.ROOT,
        trust=False,
        command="the app",
        where="the uploaded config",
        advice="The app runs only plug-ins installed as packages or given to "
        "`mlfs app --plugin` when the server was started.",
    )
    return config_from_toml(text, base_dir=str(state.ROOT))


def run(config: ExperimentConfig, report: Callable[[int, int, str, str], None]) -> Path:
    """Run ``config`` with the disk cache; call ``report(done, total, eta, msg)``.

    ``eta`` is the time-left text of :func:`eta_text`.

    Returns the folder where ``results.csv`` and ``selections.csv`` were written.
    """
    start = time.monotonic()
    stamps: list[float] = []

    def progress(done: int, total: int, message: str) -> None:
        now = time.monotonic()
        stamps.append(now)
        window = stamps[-6:]
        recent = None
        if len(window) > 1:
            recent = (window[-1] - window[0]) / (len(window) - 1)
        report(done, total, eta_text(now - start, done, total, recent), message)

    cache_dir = state.work_dir() / "experiment_cache"
    folder = _run_folder(config)
    # one writer per folder, as `mlfs experiment --out` (a second tab running the
    # same config gets the engine's FolderBusy message naming this run)
    with output_lock(folder, "MLFS Explorer app run", note=lambda text: None):
        result = run_experiment(config, cache_dir=cache_dir, progress=progress)
        save(result, folder)
        (folder / STATEMENT_FILE).write_text(settings_text(config) + "\n", "utf-8")
    return folder


STATEMENT_FILE = "settings.txt"
"""A run folder's file holding :func:`settings_text` of the config it ran.

The page reads it back to spell out which settings results belong to when
they are not those of the form (:func:`statement_of`)."""


def statement_of(folder: str | Path) -> str | None:
    """The :func:`settings_text` saved with the run in ``folder`` (None if none)."""
    path = Path(folder) / STATEMENT_FILE
    if not path.is_file():
        return None
    return path.read_text("utf-8").strip() or None


def is_run_of(folder: str | Path, config: ExperimentConfig | None) -> bool:
    """Whether ``folder`` holds the results of ``config`` (its run folder's name).

    False for ``config`` None (the form's settings do not make a config).
    """
    return config is not None and Path(folder).name == config_digest(config)


def _run_folder(config: ExperimentConfig) -> Path:
    """This session's folder for ``config``'s output files.

    Under the session's own ``runs`` folder: another session running the same
    config writes its own copy, never over this one's (the task cache, keyed
    by content, stays shared).
    """
    return state.session_dir("runs") / config_digest(config)


def config_digest(config: ExperimentConfig) -> str:
    """A short hash naming ``config`` (its run folder, its time estimate).

    An uploaded (in-memory) dataset counts by its content hash, not by its
    ``repr``, which shows only the shape and the first and last values.
    """
    named = tuple(
        d.content_hash() if hasattr(d, "content_hash") else d for d in config.datasets
    )
    parts = (named, config.methods, config.protocol, config.seed, config.plugins)
    text = repr((*parts, config.name))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def save(result: ExperimentResult, folder: Path) -> Path:
    """Write results.csv, selections.csv, timings.csv and (if possible) config.toml.

    The engine's writer (:func:`mlfs_core.evaluation.outputs.write_run_files`)
    writes them, with the config's paths as given, through the atomic writer
    ``mlfs experiment`` uses (:func:`~mlfs_core.evaluation.outputs.write_atomically`):
    a write the free space cannot take is refused before it starts, and a
    failure midway leaves the folder's previous results as they were.
    """

    def write(scratch: Path) -> list[Path]:
        return write_run_files(result, scratch, resolve_paths=False)

    write_atomically(folder, write, need=estimate_output_bytes(result))
    return folder


def solver_summary(folder: Path) -> str | None:
    """The run's classifier-convergence sentence.

    None without timings, and None when no fit ran an iterative solver (no
    ``max_n_iter`` recorded, e.g. ML-kNN): "0 stopped at max_iter" would say
    nothing there.
    """
    import pandas as pd

    path = Path(folder) / TIMINGS_FILE
    if not path.is_file():
        return None
    timings = pd.read_csv(path)
    fits = timings[timings["stage"] == "fit"]
    if MAX_N_ITER not in fits or not fits[MAX_N_ITER].fillna(0).gt(0).any():
        return None
    return convergence_line(timings)


def eta_text(elapsed: float, done: int, total: int, recent: float | None) -> str:
    """The time-left part of the progress text.

    ``recent`` is the mean duration of the last few tasks (None before any);
    it, rather than the run's overall mean, predicts the rest, since cached
    tasks finish at once and the slow ones come later. Under 10 s the text
    says "a few seconds", not a number that would stand still while one
    task runs.

    Examples
    --------
    >>> eta_text(2.0, 4, 10, 0.5)
    ' · a few seconds left'
    >>> eta_text(10.0, 5, 10, 30.0)
    ' · about 3 min left'
    """
    if not done or done >= total:
        return ""
    rate = recent if recent is not None else elapsed / done
    left = rate * (total - done)
    if left < 10:
        return " · a few seconds left"
    if left < 90:
        return f" · about {10 * int(left / 10 + 0.5)} s left"
    return f" · about {int(left / 60 + 0.5)} min left"


def settings_text(config: ExperimentConfig) -> str:
    """``config`` in one sentence: protocol, datasets, methods, budgets, folds, seed.

    Examples
    --------
    >>> settings_text(ExperimentConfig(datasets=("sample",), methods=("MaxCS",),
    ...     protocol=protocol_preset("field", budgets=(2, 4)), seed=3))
    ... # doctest: +NORMALIZE_WHITESPACE
    'protocol field on 1 dataset(s): sample; 1 method(s) (MaxCS) at budgets 2, 4
    (features), 5 random 70/30 splits, seed 3.'
    """
    proto = config.protocol
    names = [
        getattr(d, "name", None) or Path(str(getattr(d, "path", d))).name
        for d in config.datasets
    ]
    unit = "% of M" if proto.budget_unit == "percent" else "features"
    budgets = ", ".join(f"{b:g}" for b in proto.budgets)
    split = {
        "cv": f"{proto.n_folds}-fold CV",
        "own": "the dataset's own train/test split",
        "holdout": f"a {_parts(proto.test_size)} holdout split",
        "repeated_holdout": f"{proto.n_holdouts} random "
        f"{_parts(proto.test_size)} splits",
    }.get(proto.split, proto.split)
    methods = ", ".join(m.display for m in config.methods)
    return (
        f"protocol {proto.name} on {len(names)} dataset(s): {', '.join(names)}; "
        f"{len(config.methods)} method(s) ({methods}) at budgets {budgets} "
        f"({unit}), {split}, seed {config.seed}."
    )


def _parts(test_size: float) -> str:
    """``"70/30"`` for a test fraction of 0.3."""
    test = round(100 * test_size)
    return f"{100 - test}/{test}"


def run_statement(config: ExperimentConfig) -> str:
    """What Run will compute: ``"Run computes "`` and :func:`settings_text`."""
    return f"Run computes {settings_text(config)}"


LONG_RUN_S = 120.0
"""An estimate above this many seconds offers the quick variant."""


def estimate(config: ExperimentConfig) -> dict:
    """Measure one selection and one fit of ``config``; extrapolate to the run.

    The probe is the first dataset's first fold, the first method that is not
    AF (all features), at the largest budget, computed without the cache so
    its time is real. The run's time is that selection's time for every
    selection plus that fit's time for every fit: a rough figure (methods
    differ, cached tasks take no time), and said to be one.

    Returns
    -------
    dict
        ``seconds`` (the estimate), ``probe_seconds`` (what the probe took),
        ``selections``, ``fits`` (task counts), ``method``, ``dataset``.
    """
    plan = plan_experiment(config)
    first = next(
        (j for j, s in enumerate(plan.selections) if not s.method.is_all_features),
        0,
    )
    fits = [i for i, f in enumerate(plan.fits) if f.selection == first]
    if not fits:
        fits = [0]
    probe = max(fits, key=lambda i: plan.fits[i].k)
    start = time.monotonic()
    outcome = execute_plan(plan.with_fits([probe]), cache_dir=None)
    probe_seconds = time.monotonic() - start
    selection = plan.selections[plan.fits[probe].selection]
    order = outcome.selection_values(plan.fits[probe].selection)
    sel_s = order.seconds if order is not None else 0.0
    fit_s = max(probe_seconds - sel_s, 0.0)
    n_sel = len(plan.needed_selections)
    return {
        "seconds": n_sel * sel_s + len(plan.fits) * fit_s,
        "probe_seconds": probe_seconds,
        "selections": n_sel,
        "fits": len(plan.fits),
        "method": selection.method.name,
        "dataset": selection.dataset.name,
    }


def estimate_text(found: dict) -> str:
    """``about N minutes on this machine`` and what the figure rests on.

    Examples
    --------
    >>> estimate_text({"seconds": 600, "probe_seconds": 1.2, "selections": 30,
    ...                "fits": 90, "method": "MaxCS", "dataset": "emotions"})
    ... # doctest: +NORMALIZE_WHITESPACE
    'About 10 minutes on this machine (30 rankings and 90 classifier fits,
    extrapolated from one of each: MaxCS on emotions, 1.2 s; tasks already
    cached take no time).'
    """
    seconds = found["seconds"]
    if seconds < 60:
        when = "under a minute"
    else:
        minutes = round(seconds / 60)
        when = f"{minutes} minute{'s' if minutes != 1 else ''}"
    return (
        f"About {when} on this machine ({found['selections']} rankings and "
        f"{found['fits']} classifier fits, extrapolated from one of each: "
        f"{found['method']} on {found['dataset']}, {found['probe_seconds']:.1f} s; "
        "tasks already cached take no time)."
    )


def quick_budgets(budgets: tuple) -> str:
    """At most three budgets of ``budgets``: the first, the middle, the last.

    Examples
    --------
    >>> quick_budgets((1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
    '1, 6, 10'
    >>> quick_budgets((10, 50))
    '10, 50'
    """
    values = list(budgets)
    if len(values) > 3:
        values = [values[0], values[len(values) // 2], values[-1]]
    return ", ".join(f"{b:g}" for b in values)
