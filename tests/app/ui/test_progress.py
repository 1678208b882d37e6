"""The Experiment page's time left moves while one long task runs (fake clock)."""

from __future__ import annotations

import threading

from ui.progress import TimeLeft, duration_text, ticking


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _after_tasks(clock: Clock, seconds: list[float], total: int) -> TimeLeft:
    eta = TimeLeft(clock=clock)
    for done, step in enumerate(seconds, start=1):
        clock.now += step
        eta.update(done, total)
    return eta


def test_time_left_counts_down_between_two_finished_tasks():
    """Check: 4 tasks of 10 s left, the text counts down while the next task
    runs (no new report), then says how long it has run once past the pace."""
    clock = Clock()
    eta = _after_tasks(clock, [10.0] * 6, total=10)
    texts = []
    for step in (0.0, 5.0, 5.0, 2.0):
        clock.now += step
        texts.append(eta.text())
    assert texts == [
        " · about 40 s left",
        " · about 40 s left",  # 35 s, said in tens
        " · about 30 s left",
        " · this task has run about 10 s; about 40 s more at its pace",
    ]


def test_one_long_task_never_freezes_at_a_figure_that_ran_out():
    """Check the reported defect: after 1 s tasks the next one runs for 30 s.
    The text moves every second for the first 10 s, says how long the task
    has run, and never claims "1 s left" (nor "a few seconds") once the task
    has outlasted the pace by the settle time."""
    clock = Clock()
    eta = _after_tasks(clock, [1.0] * 5, total=10)  # 5 left at 1 s each
    texts = {}
    for second in range(1, 31):
        clock.now += 1.0
        texts[second] = eta.text()
    early = [texts[s] for s in range(3, 10)]
    assert len(set(early)) == len(early)  # a new text every second
    assert texts[5] == " · this task has run 5 s; about 20 s more at its pace"
    assert texts[30] == " · this task has run about 30 s; about 2 min more at its pace"
    assert not any("1 s left" in t for t in texts.values())
    assert not any("few seconds" in t for s, t in texts.items() if s > 2)


def test_last_task_and_first_task_say_how_long_they_have_run():
    """Check the two ends: the first task (no pace yet) and the last one."""
    clock = Clock()
    eta = TimeLeft(clock=clock)
    eta.update(0, 3)
    clock.now += 1.0
    assert eta.text() == ""  # too early to say anything
    clock.now += 4.0
    assert eta.text() == " · first task, 5 s so far"
    eta = _after_tasks(clock, [2.0, 2.0], total=3)
    clock.now += 12.0
    assert eta.text() == " · this task has run about 10 s, the last one"
    eta.update(3, 3)
    assert eta.text() == ""


def test_duration_text_rounds_as_people_say_it():
    """Check the steps: whole seconds under 10, tens under 90, then minutes."""
    assert [duration_text(s) for s in (0.4, 9.9, 10, 44.9, 45, 89, 90, 151)] == [
        "0 s",
        "9 s",
        "about 10 s",
        "about 40 s",
        "about 50 s",
        "about 90 s",
        "about 2 min",
        "about 3 min",
    ]


def test_ticking_draws_from_another_thread_until_the_block_ends():
    """Check that ticking calls draw from a helper thread while the caller is
    busy, that the yielded function draws at once, and that no draw follows
    the end of the block."""
    threads, drew = [], threading.Event()

    def draw() -> None:
        threads.append(threading.current_thread().name)
        drew.set()

    with ticking(draw, interval=0.01) as draw_now:
        draw_now()
        assert threads == [threading.current_thread().name]
        assert drew.wait(timeout=30)  # the helper's own draw
        while len(threads) < 2:
            drew.clear()
            drew.wait(timeout=30)
    count = len(threads)
    assert "mlfs-progress" in threads
    threading.Event().wait(0.05)
    assert len(threads) == count


def test_the_experiment_bar_is_redrawn_while_one_task_runs(monkeypatch):
    """Check on the Experiment page (AppTest) that while one task runs the
    helper thread redraws the bar's text, with no exception, and the run's
    own reports still go through."""
    import time

    from streamlit.delta_generator import DeltaGenerator

    from ui.sections import experiment_run

    from ..conftest import new_app, open_page

    drawn: list[str] = []  # the threads of the bar's updates that went through
    real_progress = DeltaGenerator.progress

    def bar_progress(self, *args, **kwargs):
        out = real_progress(self, *args, **kwargs)
        drawn.append(threading.current_thread().name)
        return out

    def one_long_task(config, report):
        report(1, 3, "", "task 1")
        deadline = time.monotonic() + 60
        while drawn.count("mlfs-progress") < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        report(2, 3, "", "task 2")
        raise ValueError("stopped by the test")

    monkeypatch.setattr(DeltaGenerator, "progress", bar_progress)
    monkeypatch.setattr(experiment_run, "run", one_long_task)
    at = open_page(new_app(), "experiment")
    at.button(key="exp_run").click().run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    assert drawn.count("mlfs-progress") >= 2
    assert any("stopped by the test" in e.value for e in at.error)
