"""Guided lessons: a title, the datasets, and steps that are views of the app.

A lesson is a small TOML file, data only: nothing in it runs. TOML (read by
the standard library's ``tomllib``) rather than Markdown with front
matter, because every part of a step is a named field (no heading or list
convention to get wrong), multi-line notes need only triple quotes, and a
syntax error names its line::

    title = "What a filter score sees"
    datasets = ["medical"]
    about = "Optional: one paragraph shown with the first step."

    [[step]]
    view = "score?dataset=medical&score_label=Class-4-786_0"
    note = "What the teacher says while the class looks at this view."
    question = "What the class is asked."

A step's ``view`` is a view of the app exactly as in its link: the page's
name (the script name, ``score`` for ``app_pages/score.py``), then ``?``
and the page's choices as query parameters. The app plays a lesson from
its link (``?lesson=NAME&step=3``), so each student can follow it on their
own laptop.

Rules (each broken one is a :class:`~mlfs_core.errors.ConfigError` naming
the file, and the line and step where there is one):

- the file is at most :data:`MAX_BYTES` bytes and holds exactly the keys
  ``title``, ``datasets`` (a list of names), ``about`` (optional) and one
  ``[[step]]`` table per step (1 to :data:`MAX_STEPS`);
- a step holds ``view`` and ``note`` (required) and ``question``
  (optional); a text is at most :data:`MAX_TEXT` characters;
- a view's page is a plain name (and one of ``pages`` when the caller
  passes them); its query string parses strictly (a parameter may repeat:
  a multiselect's choices) and holds no ``ws`` (a workspace token is
  private), ``lesson`` or ``step``; its ``dataset``, if any, is one of
  the lesson's datasets.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from mlfs_core.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

__all__ = [
    "MAX_BYTES",
    "MAX_STEPS",
    "MAX_TEXT",
    "Lesson",
    "Step",
    "bundled_lessons",
    "slides_html",
    "slides_png_zip",
    "find_lesson",
    "lesson_text",
    "parse_lesson",
    "read_lesson",
    "split_view",
    "view_link",
]

MAX_BYTES = 64_000
"""Largest lesson file, in bytes."""
MAX_STEPS = 40
"""Most steps in one lesson."""
MAX_TEXT = 2_000
"""Longest title, note, question or view, in characters."""
_PRIVATE_PARAMS = frozenset({"ws", "lesson", "step"})
"""Query parameters a step's view never holds: the workspace token is private,
the lesson and step are the player's own."""
_BUNDLED_DIR = Path(__file__).resolve().parent
"""The folder of the lessons that ship with the package (``*.toml``)."""

_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
_PAGE = re.compile(r"[a-z_][a-z0-9_]{0,63}")
_PARAM = re.compile(r"[A-Za-z0-9_]{1,64}")
_TOP_KEYS = {"title", "datasets", "about", "step"}
_STEP_KEYS = {"view", "note", "question"}


@dataclass(frozen=True)
class Step:
    """One step of a lesson: a view of the app, the teacher's note, a question.

    Attributes
    ----------
    page : str
        The page's name (its script's name, e.g. ``"score"``).
    params : tuple of (str, str)
        The view's query parameters, in the order written.
    note : str
        What the teacher says at this step.
    question : str
        The question for the class ("" for none).
    line : int
        The line of the step's ``[[step]]`` header (0 when unknown).
    """

    page: str
    params: tuple[tuple[str, str], ...]
    note: str
    question: str = ""
    line: int = 0

    @property
    def view(self) -> str:
        """The view as in a link: ``page?query``."""
        return view_link(self.page, self.params)

    @property
    def dataset(self) -> str | None:
        """The dataset the view names (None when it names none)."""
        return dict(self.params).get("dataset")


@dataclass(frozen=True)
class Lesson:
    """A guided lesson: a title, its datasets and its steps.

    Attributes
    ----------
    title : str
        The lesson's title.
    datasets : tuple of str
        The names of the datasets its steps use.
    steps : tuple of Step
        The steps, first to last.
    about : str
        An introduction ("" for none).
    source : str
        Where it was read from (a file name), for messages.
    """

    title: str
    datasets: tuple[str, ...]
    steps: tuple[Step, ...] = field(default=())
    about: str = ""
    source: str = "<lesson>"


def view_link(page: str, params: Iterable[tuple[str, str]]) -> str:
    """A view as in a link: ``page``, then ``?`` and the query string (if any).

    >>> view_link("score", [("dataset", "medical"), ("score_label", "a b")])
    'score?dataset=medical&score_label=a+b'
    """
    query = urlencode(list(params))
    return f"{page}?{query}" if query else page


def split_view(
    view: str, where: str = "view"
) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A view's page and query parameters (the inverse of :func:`view_link`).

    Raises
    ------
    ConfigError
        The page is not a plain name, the query string does not parse, or
        it names a malformed parameter or a private one
        (``ws``, ``lesson``, ``step``); the message starts with ``where``.
    """
    page, _, query = view.strip().lstrip("/").partition("?")
    if not _PAGE.fullmatch(page):
        raise ConfigError(
            f"{where}: the view's page {page!r} is not a page name "
            "(lower-case letters, digits and _, e.g. 'score')."
        )
    try:
        params = tuple(
            parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
        )
    except ValueError as err:
        raise ConfigError(
            f"{where}: the view's query string does not parse ({err})."
        ) from None
    names = [k for k, _ in params]
    bad = [k for k in names if not _PARAM.fullmatch(k)]
    if bad:
        raise ConfigError(f"{where}: the view holds malformed parameter names {bad}.")
    private = sorted(_PRIVATE_PARAMS.intersection(names))
    if private:
        raise ConfigError(
            f"{where}: the view holds {private}: a link's ws is its owner's "
            "workspace token, lesson and step are the player's; leave them out."
        )
    return page, params


def parse_lesson(
    text: str, source: str = "<lesson>", pages: Sequence[str] | None = None
) -> Lesson:
    """Read a lesson from its TOML ``text`` and check every rule of the format.

    Parameters
    ----------
    text : str
        The file's text.
    source : str
        The file's name, for messages.
    pages : sequence of str, optional
        The page names a view may name (the app passes its pages); any plain
        name when omitted.

    Returns
    -------
    Lesson

    Raises
    ------
    ConfigError
        The text is too long, is not TOML, or breaks a rule of the format
        (module docstring); the message names ``source`` and, for a step,
        its number and line.
    """
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise ConfigError(f"{source}: a lesson is at most {MAX_BYTES} bytes.")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{source}: not a TOML file: {err}.") from None
    _check_keys(doc, _TOP_KEYS, {"title", "datasets", "step"}, source)
    title = _text(doc["title"], f"{source}: title", required=True)
    about = _text(doc.get("about", ""), f"{source}: about")
    datasets = _datasets(doc["datasets"], source)
    raw = doc["step"]
    if not isinstance(raw, list) or not raw:
        raise ConfigError(f"{source}: 'step' must be [[step]] tables, at least one.")
    if len(raw) > MAX_STEPS:
        raise ConfigError(
            f"{source}: {len(raw)} steps; a lesson has at most {MAX_STEPS}."
        )
    lines = _step_lines(text)
    steps = tuple(
        _step(item, source, number, lines, datasets, pages)
        for number, item in enumerate(raw, start=1)
    )
    return Lesson(title, datasets, steps, about, source)


def _check_keys(doc: dict, allowed: set, required: set, where: str) -> None:
    unknown = sorted(set(doc) - allowed)
    missing = sorted(required - set(doc))
    if unknown:
        raise ConfigError(
            f"{where}: unknown keys {unknown}; allowed: {sorted(allowed)}."
        )
    if missing:
        raise ConfigError(f"{where}: missing {missing}.")


def _text(value: object, where: str, *, required: bool = False) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{where} must be text, not {type(value).__name__}.")
    value = value.strip()
    if required and not value:
        raise ConfigError(f"{where} is empty.")
    if len(value) > MAX_TEXT:
        raise ConfigError(f"{where} has {len(value)} characters; at most {MAX_TEXT}.")
    return value


def _datasets(value: object, source: str) -> tuple[str, ...]:
    where = f"{source}: datasets"
    if not isinstance(value, list) or not value:
        raise ConfigError(f"{where} must be a list of dataset names, at least one.")
    names = tuple(_text(v, where, required=True) for v in value)
    if len(set(names)) != len(names):
        raise ConfigError(f"{where} names a dataset twice: {list(names)}.")
    return names


def _step_lines(text: str) -> list[int]:
    """The line (from 1) of each ``[[step]]`` header, in order."""
    header = re.compile(r"^\s*\[\[\s*step\s*\]\]")
    return [
        i for i, line in enumerate(text.splitlines(), start=1) if header.match(line)
    ]


def _step(
    item: object,
    source: str,
    number: int,
    lines: list[int],
    datasets: tuple[str, ...],
    pages: Sequence[str] | None,
) -> Step:
    line = lines[number - 1] if number <= len(lines) else 0
    where = (
        f"{source}, line {line}, step {number}" if line else f"{source}, step {number}"
    )
    if not isinstance(item, dict):
        raise ConfigError(f"{where}: a step is a [[step]] table.")
    _check_keys(item, _STEP_KEYS, {"view", "note"}, where)
    view = _text(item["view"], f"{where}: view", required=True)
    page, params = split_view(view, where)
    if pages is not None and page not in pages:
        raise ConfigError(
            f"{where}: no page named {page!r}; the pages are {sorted(pages)}."
        )
    dataset = dict(params).get("dataset")
    if dataset is not None and dataset not in datasets:
        raise ConfigError(
            f"{where}: the view's dataset {dataset!r} is not among the lesson's "
            f"datasets {list(datasets)}."
        )
    note = _text(item["note"], f"{where}: note", required=True)
    question = _text(item.get("question", ""), f"{where}: question")
    return Step(page, params, note, question, line)


def read_lesson(path: str | Path, pages: Sequence[str] | None = None) -> Lesson:
    """Read and check the lesson file ``path`` (:func:`parse_lesson`).

    Raises
    ------
    ConfigError
        The file is missing, too big, not UTF-8 text, or not a valid lesson.
    """
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError:
        raise ConfigError(f"{path}: no such lesson file.") from None
    if size > MAX_BYTES:
        raise ConfigError(f"{path}: {size} bytes; a lesson is at most {MAX_BYTES}.")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path}: not UTF-8 text ({err.reason}).") from None
    return parse_lesson(text, path.name, pages)


def lesson_text(lesson: Lesson) -> str:
    """The lesson as a TOML file that :func:`parse_lesson` reads back equal.

    Texts are written as TOML basic strings (JSON's escapes are TOML's).
    """

    def quoted(s: str) -> str:
        return json.dumps(s, ensure_ascii=False)

    out = [f"title = {quoted(lesson.title)}"]
    out.append(f"datasets = [{', '.join(map(quoted, lesson.datasets))}]")
    if lesson.about:
        out.append(f"about = {quoted(lesson.about)}")
    for step in lesson.steps:
        out += ["", "[[step]]", f"view = {quoted(step.view)}"]
        out.append(f"note = {quoted(step.note)}")
        if step.question:
            out.append(f"question = {quoted(step.question)}")
    return "\n".join(out) + "\n"


def bundled_lessons() -> dict[str, Path]:
    """The lessons that ship with the package: name -> file, sorted by name."""
    return {p.stem: p for p in sorted(_BUNDLED_DIR.glob("*.toml"))}


def find_lesson(name: str, folders: Iterable[str | Path] = ()) -> Path:
    """The file of the lesson ``name``: ``NAME.toml`` in the first of
    ``folders`` that holds it (each folder, then its ``lessons/``), else a
    bundled lesson.

    ``name`` is a plain name (lower-case letters, digits, ``_`` and ``-``),
    never a path, so a link cannot name a file outside those folders.

    Raises
    ------
    ConfigError
        ``name`` is not a plain name, or no folder and no bundled lesson has it.
    """
    if not _NAME.fullmatch(name or ""):
        raise ConfigError(
            f"lesson {name!r}: a lesson's name is lower-case letters, digits, "
            "_ and - (at most 64), e.g. 'greedy_versus_ranking'."
        )
    for folder in folders:
        for candidate in (
            Path(folder) / f"{name}.toml",
            Path(folder) / "lessons" / f"{name}.toml",
        ):
            if candidate.is_file():
                return candidate
    bundled = bundled_lessons()
    if name in bundled:
        return bundled[name]
    raise ConfigError(
        f"lesson {name!r}: no such lesson; the bundled lessons are {sorted(bundled)}."
    )


_SLIDES = ("slides_html", "slides_png_zip")
"""Names of :mod:`.slides` (plotly): imported on first use, not with the package."""


def __getattr__(name: str):
    if name in _SLIDES:
        from . import slides

        return getattr(slides, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
