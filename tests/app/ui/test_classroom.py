"""Two browser sessions on one server stay apart (AppTest: one per session)."""

from __future__ import annotations

from pathlib import Path

from ...fresh import run_fresh
from ..conftest import TOY_XML, new_app, open_page, toy_arff, upload, upload_toy


def test_two_sessions_never_see_or_evict_each_others_uploads(monkeypatch):
    """Check: B's uploads over the quota evict only B's own, A never lists B's
    upload, and A's upload still loads after B filled its quota."""
    monkeypatch.setenv("MLFS_UPLOAD_QUOTA_MB", str(3000 / 1024 / 1024))
    alice, bob = new_app(), new_app()
    upload_toy(alice, "alice", 1)
    for i in range(3):  # each toy upload is about 1.7 kB: bob evicts his own
        upload_toy(bob, f"bob{i}", 10 + i)
    assert "alice (upload)" not in bob.selectbox(key="dataset").options
    assert not any("bob" in o for o in alice.selectbox(key="dataset").options)
    alice_dir = Path(alice.session_state["uploads"]["alice (upload)"]["dir"])
    assert alice_dir.is_dir()  # not evicted by bob's quota
    assert not Path(bob.session_state["uploads"]["bob0 (upload)"]["dir"]).is_dir()
    bob_dirs = {Path(s["dir"]).parent for s in bob.session_state["uploads"].values()}
    assert bob_dirs.isdisjoint({alice_dir.parent})
    open_page(alice, "data")
    assert not alice.exception and not alice.error
    assert alice.session_state["dataset"] == "alice (upload)"


def test_the_global_cap_refuses_an_upload_with_a_clear_message(monkeypatch):
    """Check: past MLFS_UPLOAD_TOTAL_MB (all sessions) the upload is refused with
    a message naming the cap, and the other session's upload stays."""
    alice, bob = new_app(), new_app()
    upload_toy(alice, "alice", 1)
    monkeypatch.setenv("MLFS_UPLOAD_TOTAL_MB", str(2500 / 1024 / 1024))
    upload(
        bob,
        [("bob.arff", toy_arff(seed=2).encode(), "text/plain"),
         ("bob.xml", TOY_XML.encode(), "text/xml")],
    )  # fmt: skip
    assert not bob.exception
    (message,) = [e.value for e in bob.error]
    assert message.startswith("Could not keep the upload: the server's space")
    assert "MLFS_UPLOAD_TOTAL_MB" in message
    assert Path(alice.session_state["uploads"]["alice (upload)"]["dir"]).is_dir()
    assert [f.name for f in next(iter(bob.file_uploader)).value] == [
        "bob.arff",
        "bob.xml",
    ]


def test_the_same_experiment_in_two_sessions_writes_two_result_folders():
    """Check: each session's "this session's experiment" is its own folder."""
    folders = []
    for _ in range(2):
        at = open_page(new_app(), "experiment")
        at.multiselect(key="exp_methods_A").set_value(["MaxCS"]).run()
        at.text_input(key="exp_budgets_A").set_value("50").run()
        at.text_input(key="exp_folds_A").set_value("2").run()
        at.button(key="exp_run").click().run()
        assert not at.exception and not at.error
        folders.append(Path(at.session_state["experiment_results"]))
    assert folders[0] != folders[1]
    assert folders[0].name == folders[1].name  # same config, same digest
    assert (folders[0] / "results.csv").is_file()
    assert (folders[1] / "results.csv").is_file()


def test_sessions_starting_together_import_the_app_once(tmp_path):
    """Check: 4 threads (4 first script runs) calling warmup.import_all at once
    in a fresh interpreter all return without error, with every ui.sections
    module imported (they got "partially initialized module 'pandas'")."""
    code = (
        "import sys, threading\n"
        "import mlfs_core\n"
        "from ui import warmup\n"
        "errors = []\n"
        "def run():\n"
        "    try:\n"
        "        warmup.import_all()\n"
        "    except Exception as exc:\n"
        "        errors.append(repr(exc))\n"
        "threads = [threading.Thread(target=run) for _ in range(4)]\n"
        "[t.start() for t in threads]\n"
        "[t.join() for t in threads]\n"
        "assert not errors, errors\n"
        "assert 'ui.sections.experiment_form' in sys.modules\n"
        "assert 'pandas' in sys.modules and hasattr(sys.modules['pandas'], 'Series')\n"
        "print('ok')\n"
    )
    assert run_fresh(code).endswith("ok")


def test_import_all_freezes_the_imported_objects_out_of_the_collector(tmp_path):
    """Check that after warmup.import_all the modules' objects are frozen, so the
    full collection Streamlit runs after every script run (runner.postScriptGC)
    no longer walks them, and that garbage made later is still collected."""
    code = (
        "import gc, weakref\n"
        "from ui import warmup\n"
        "assert gc.get_freeze_count() == 0\n"
        "warmup.import_all()\n"
        "frozen = gc.get_freeze_count()\n"
        "assert frozen > 50_000, frozen\n"
        "class Node: pass\n"
        "a, b = Node(), Node()\n"
        "a.other, b.other = b, a\n"
        "alive = weakref.ref(a)\n"
        "del a, b\n"
        "gc.collect(2)\n"
        "assert alive() is None\n"
        "assert len(gc.get_objects()) < frozen / 10, len(gc.get_objects())\n"
        "print('ok', frozen)\n"
    )
    assert run_fresh(code).startswith("ok")


def test_the_first_page_imports_only_what_it_needs_and_the_rest_follows(tmp_path):
    """Check, in a fresh interpreter, that import_needed freezes what it imported
    out of the collector and leaves the experiment runner (scikit-learn) for
    later, that a run inside settling() holds the import lock (another
    thread's import_all waits for it), and that leaving it imports the rest
    in a background thread, after which runs no longer take the lock."""
    code = (
        "import sys, threading, time\n"
        "from ui import warmup\n"
        "import gc\n"
        "warmup.import_needed()\n"
        "assert 'pandas' in sys.modules and 'ui.cached' in sys.modules\n"
        "assert gc.get_freeze_count() > 50_000  # the first run's GC skips them\n"
        "assert 'ui.sections.experiment_form' not in sys.modules\n"
        "order = []\n"
        "def other():\n"
        "    warmup.import_all()\n"
        "    order.append('other done')\n"
        "with warmup.settling():\n"
        "    t = threading.Thread(target=other); t.start()\n"
        "    time.sleep(0.5)\n"
        "    order.append('page done')\n"
        "t.join(120)\n"
        "assert order == ['page done', 'other done'], order\n"
        "assert 'ui.sections.experiment_form' in sys.modules\n"
        "for th in threading.enumerate():\n"
        "    if th.name == 'mlfs-imports': th.join(120)\n"
        "assert warmup._IMPORTED and warmup._IMPORTS.acquire(blocking=False)\n"
        "print('ok')\n"
    )
    assert run_fresh(code).endswith("ok")


def test_leaving_settling_imports_the_rest_in_a_daemon_thread(tmp_path):
    """Check that after a run inside settling() ends, the rest of the app is
    imported by a background thread (outside AppTest) and frozen."""
    code = (
        "import gc, sys, threading\n"
        "from ui import warmup\n"
        "warmup.import_needed()\n"
        "with warmup.settling():\n"
        "    pass\n"
        "(th,) = [t for t in threading.enumerate() if t.name == 'mlfs-imports']\n"
        "assert th.daemon\n"
        "th.join(120)\n"
        "assert 'ui.sections.experiment_form' in sys.modules\n"
        "assert gc.get_freeze_count() > 50_000\n"
        "print('ok')\n"
    )
    assert run_fresh(code).endswith("ok")


def test_a_page_run_slips_in_between_the_background_imports(tmp_path):
    """Check that a page run that waits for the import lock while import_all
    imports the rest gets it after the module being imported, not after the
    whole rest: the second slow module is imported only after the page ran."""
    for name in ("mlfs_slow_a", "mlfs_slow_b"):
        (tmp_path / f"{name}.py").write_text(
            "import pathlib, time\n"
            f"pathlib.Path({str(tmp_path)!r}, '{name}.started').touch()\n"
            "time.sleep(1.0)\n"
        )
    code = (
        "import sys, threading, time, pathlib\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "from ui import warmup\n"
        "warmup.import_needed()\n"
        "warmup.REST_FIRST = ('mlfs_slow_a', 'mlfs_slow_b')\n"
        "t = threading.Thread(target=warmup.import_all); t.start()\n"
        f"started = pathlib.Path({str(tmp_path)!r}, 'mlfs_slow_a.started')\n"
        "while not started.exists(): time.sleep(0.01)\n"
        "with warmup.settling():\n"
        "    assert 'mlfs_slow_a' in sys.modules\n"
        "    assert 'mlfs_slow_b' not in sys.modules\n"
        "    assert not warmup._IMPORTED\n"
        "t.join(120)\n"
        "assert warmup._IMPORTED and 'mlfs_slow_b' in sys.modules\n"
        "print('ok')\n"
    )
    assert run_fresh(code).endswith("ok")
