"""AppTest tests of the Experiment page."""

from __future__ import annotations

from pathlib import Path

from ..conftest import charts, new_app, open_page

SMALL = {"exp_folds_A": "2", "exp_budgets_A": "10, 50"}


def _small_experiment():
    at = open_page(new_app(), "experiment")
    at.multiselect(key="exp_methods_A").set_value(["MaxCS", "Random"]).run()
    for key, value in SMALL.items():
        at.text_input(key=key).set_value(value).run()
    return at


def test_experiment_page_renders_with_teaching_defaults():
    """Check that the page opens with the sample, protocol A and a config download."""
    at = open_page(new_app(), "experiment")
    assert at.multiselect(key="exp_datasets").value == ["sample (planted)"]
    assert at.radio(key="exp_protocol").value == "A"
    assert not at.button(key="exp_run").disabled
    assert any(b.label == "Save this config (TOML)" for b in at.get("download_button"))


def test_running_an_experiment_shows_results_and_feeds_analysis_pages():
    """Check that Run finishes (progress 100), shows results and sets the source."""
    at = _small_experiment()
    at.button(key="exp_run").click().run()
    assert not at.exception and not at.error
    assert at.progress[0].value == 100
    table = at.dataframe[0].value
    assert set(table["method"]) == {"MaxCS", "Random"}
    assert set(table["budget_pct"]) == {10.0, 50.0}
    (chart,) = charts(at)  # one dataset: the run's metric vs budget
    assert "This run: micro_f1 vs budget" in chart.proto.spec
    open_page(at, "average_ranks")
    assert at.radio(key="results_source_widget").value == "This session's experiment"


def test_rerun_with_same_settings_reuses_the_cache(monkeypatch):
    """Check that a second identical run ranks and fits nothing: all from the cache."""
    from mlfs_core.evaluation.runner.execute import tasks as _tasks

    calls = {"rank": 0, "fit": 0}
    rank, make = _tasks.compute_ranking, _tasks.make_classifier

    def counted(name, fn):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return fn(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(_tasks, "compute_ranking", counted("rank", rank))
    monkeypatch.setattr(_tasks, "make_classifier", counted("fit", make))
    at = _small_experiment()
    at.button(key="exp_run").click().run()
    first = dict(calls)
    assert first["rank"] > 0 and first["fit"] > 0  # the spies see the work
    table = at.dataframe[0].value
    at.button(key="exp_run").click().run()
    assert calls == first, "the second run recomputed tasks"
    assert at.dataframe[0].value.equals(table)


def test_invalid_budgets_show_an_error_and_disable_run():
    """Check that unreadable budgets give st.error and a disabled Run button."""
    at = open_page(new_app(), "experiment")
    at.text_input(key="exp_budgets_A").set_value("ten").run()
    assert not at.exception
    assert "budgets: cannot read 'ten'" in at.error[0].value
    assert at.button(key="exp_run").disabled


def test_loading_a_toml_config_fills_the_widgets():
    """Check that an uploaded config sets protocol, methods, budgets and seed."""
    toml = (
        'name = "t"\nseed = 7\nmethods = ["PPT-MI", "SCLS"]\n'
        '[protocol]\nname = "B"\nsplit = "holdout"\nbudgets = [1, 2, 3]\n'
        'budget_unit = "count"\n[[datasets]]\npath = "sample"\n'
    )
    at = open_page(new_app(), "experiment")
    at.file_uploader(key="exp_config_upload").set_value(
        ("c.toml", toml.encode(), "application/toml")
    ).run()
    assert not at.exception
    assert at.radio(key="exp_protocol").value == "B"
    assert at.multiselect(key="exp_methods_B").value == ["PPT-MI", "SCLS"]
    assert at.text_input(key="exp_budgets_B").value == "1, 2, 3"
    assert at.text_input(key="seed").value == "7"


def test_bad_toml_config_shows_an_error():
    """Check that a malformed config gives st.error naming the file."""
    at = open_page(new_app(), "experiment")
    at.file_uploader(key="exp_config_upload").set_value(
        ("bad.toml", b"methods = [", "application/toml")
    ).run()
    assert not at.exception
    assert at.error[0].value.startswith("Could not load bad.toml")


def test_a_run_on_two_datasets_shows_average_ranks(data_dir):
    """Check that a run on 2 datasets draws the methods' average ranks after Run."""
    at = _small_experiment()
    at.multiselect(key="exp_datasets").set_value(["sample (planted)", "toy"]).run()
    at.button(key="exp_run").click().run()
    assert not at.exception and not at.error
    (chart,) = charts(at)
    assert "This run: average rank by micro_f1" in chart.proto.spec
    assert '"MaxCS"' in chart.proto.spec and '"Random"' in chart.proto.spec


def test_scaling_and_binarize_reach_the_config_and_solver_state_is_shown():
    """Check the scaling/binarize widgets change the saved config and the results."""
    from pathlib import Path

    import tomllib

    from ui import state

    at = _small_experiment()
    at.button(key="exp_run").click().run()
    plain = at.dataframe[0].value
    assert any("stopped at max_iter" in c.value for c in at.caption)
    at.selectbox(key="exp_scaling_A").set_value("l2-rows").run()
    at.selectbox(key="exp_binarize_A").set_value("median").run()
    at.button(key="exp_run").click().run()
    assert not at.exception and not at.error
    folder = Path(at.session_state[state.EXPERIMENT_RESULTS])
    config = tomllib.loads((folder / "config.toml").read_text())
    assert config["protocol"]["scaling"] == "l2-rows"
    assert {"name": "MaxCS", "params": {"binarize": "median"}} in config["methods"]
    assert not at.dataframe[0].value["value"].equals(plain["value"])


def _config_with_datasets(*paths: str) -> bytes:
    datasets = "".join(f'[[datasets]]\npath = "{p}"\n' for p in paths)
    return (
        'name = "t"\nseed = 1\nmethods = ["MaxCS"]\n[protocol]\nname = "A"\n'
        "budgets = [10]\n" + datasets
    ).encode()


def test_a_config_cannot_point_the_server_at_any_folder(tmp_path, data_dir):
    """Check: a path outside MLFS_DATA_DIR / the work dir is left out, unnamed.

    The folder holds "secret" files; neither its path nor their names may
    appear, and the sidebar must not gain it.
    """
    outside = tmp_path / "private"
    outside.mkdir()
    (outside / "creds.csv").write_text("user,password\n")
    (outside / "keys.csv").write_text("k,v\n")
    toml = _config_with_datasets("sample", str(outside), str(data_dir / "toy"))
    at = open_page(new_app(), "experiment")
    at.file_uploader(key="exp_config_upload").set_value(
        ("c.toml", toml, "application/toml")
    ).run()
    assert not at.exception and not at.error
    assert at.multiselect(key="exp_datasets").value == ["sample (planted)", "toy"]
    message = at.warning[0].value
    assert "left out 1 dataset(s) not available on this server: private" in message
    assert str(tmp_path) not in message and "creds" not in message
    assert "private" not in at.session_state["extra_paths"]
    assert "private" not in at.selectbox(key="dataset").options


def test_a_config_may_name_a_path_inside_the_data_folder(tmp_path, data_dir):
    """Check that a sub-folder of MLFS_DATA_DIR named by path is accepted."""
    inner = data_dir / "more" / "toy2"
    inner.mkdir(parents=True)
    (inner / "toy2.arff").write_text((data_dir / "toy" / "toy.arff").read_text())
    (inner / "toy2.xml").write_text((data_dir / "toy" / "toy.xml").read_text())
    at = open_page(new_app(), "experiment")
    at.file_uploader(key="exp_config_upload").set_value(
        ("c.toml", _config_with_datasets(str(inner)), "application/toml")
    ).run()
    assert not at.exception and not at.warning
    assert at.multiselect(key="exp_datasets").value == ["toy2"]
    assert at.session_state["extra_paths"] == {"toy2": str(inner)}


def test_fractional_count_budget_is_an_error_not_a_silent_10():
    """Check that protocol B's budget 10.5 shows the engine's error (was read as 10)."""
    at = open_page(new_app(), "experiment")
    at.radio(key="exp_protocol").set_value("B").run()
    at.text_input(key="exp_budgets_B").set_value("5, 10.5").run()
    assert not at.exception
    assert "counts must be integers, got 10.5" in at.error[0].value
    assert at.button(key="exp_run").disabled


def test_protocol_b_offers_the_registered_evaluations(monkeypatch):
    """Check the Evaluation box offers the definitions, then the registry's
    presets and conventions, a plug-in's convention included."""
    from mlfs_core.evaluation import conventions

    mine = conventions.Convention(
        "ours_only", aspect="label_metrics", choice="mine", description="my rule"
    )
    monkeypatch.setitem(conventions.CONVENTIONS, mine.name, mine)
    at = open_page(new_app(), "experiment")
    at.radio(key="exp_protocol").set_value("B").run()
    box = at.selectbox(key="exp_evaluation")
    assert box.options[0] == "as METHODS.md defines it"
    assert "ours_only alone: my rule" in box.options
    want = [*conventions.PRESETS, *conventions.CONVENTIONS]
    assert "reference-code" in want  # the papers' package registers its code's
    assert len(box.options) == 1 + len(want)
    shown = [f"{name}: all of" for name in conventions.PRESETS]
    assert all(any(o.startswith(s) for o in box.options) for s in shown)


def test_protocol_b_evaluation_choice_reaches_the_config_and_the_results():
    """Check the Evaluation box: the authors' evaluation runs with its own metrics
    (weighted F1 drawn after the run), a convention alone is saved in the config,
    an uploaded config sets the box, and minmax scaling with the authors'
    evaluation is an st.error naming the scaling, not a traceback.
    """
    from pathlib import Path

    import tomllib

    from ui import state

    at = open_page(new_app(), "experiment")
    at.radio(key="exp_protocol").set_value("B").run()
    assert at.selectbox(key="exp_evaluation").value == "definition"
    at.multiselect(key="exp_methods_B").set_value(["PPT-MI", "ATR"]).run()
    at.text_input(key="exp_budgets_B").set_value("1-5").run()
    at.selectbox(key="exp_evaluation").set_value("reference-code").run()
    at.button(key="exp_run").click().run()
    assert not at.exception and not at.error
    folder = Path(at.session_state[state.EXPERIMENT_RESULTS])
    config = tomllib.loads((folder / "config.toml").read_text())
    # the preset as a string, or as the [protocol.evaluation] table
    assert config["protocol"]["evaluation"] in (
        "reference-code",
        {"preset": "reference-code"},
    )
    assert "weighted_f1" in set(at.dataframe[0].value["metric"])
    assert "weighted_f1" in charts(at)[-1].proto.spec
    at.selectbox(key="exp_evaluation").set_value("mlknn").run()
    saved = [b for b in at.get("download_button") if b.label.startswith("Save")]
    assert saved and not at.error
    at.selectbox(key="exp_evaluation").set_value("reference-code").run()
    at.selectbox(key="exp_scaling_B").set_value("minmax").run()
    assert not at.exception
    assert any("scaling" in e.value for e in at.error)
    assert at.button(key="exp_run").disabled
    toml = (
        'name = "t"\nseed = 3\nmethods = ["ATR"]\n[protocol]\nname = "B"\n'
        'budgets = [1, 2]\nbudget_unit = "count"\nevaluation = "split"\n'
        'discretize = "uniform"\n'
        '[protocol.classifier]\nname = "mlknn"\n[[datasets]]\npath = "sample"\n'
    )
    at.file_uploader(key="exp_config_upload").set_value(
        ("c.toml", toml.encode(), "application/toml")
    ).run()
    assert not at.exception
    assert at.selectbox(key="exp_evaluation").value == "split"


def test_the_form_keeps_its_values_across_pages_and_protocol_switches(data_dir):
    """Check: datasets, protocol and each protocol's edits survive a visit of Data
    and B -> A -> B switches (Streamlit drops the state of widgets not drawn)."""
    at = open_page(new_app(), "experiment")
    at.multiselect(key="exp_datasets").set_value(["sample (planted)", "toy"]).run()
    at.radio(key="exp_protocol").set_value("B").run()
    at.multiselect(key="exp_methods_B").set_value(["PPT-MI", "SCLS", "ATR"]).run()
    at.text_input(key="exp_budgets_B").set_value("1-10").run()
    at.selectbox(key="exp_split_B").set_value("cv").run()
    at.text_input(key="exp_folds_B").set_value("4").run()
    open_page(at, "data")
    open_page(at, "experiment")
    assert at.multiselect(key="exp_datasets").value == ["sample (planted)", "toy"]
    assert at.radio(key="exp_protocol").value == "B"
    assert at.multiselect(key="exp_methods_B").value == ["PPT-MI", "SCLS", "ATR"]
    assert at.text_input(key="exp_budgets_B").value == "1-10"
    assert at.text_input(key="exp_folds_B").value == "4"
    at.radio(key="exp_protocol").set_value("A").run()
    at.text_input(key="exp_budgets_A").set_value("20").run()
    at.radio(key="exp_protocol").set_value("B").run()
    assert at.multiselect(key="exp_methods_B").value == ["PPT-MI", "SCLS", "ATR"]
    assert at.text_input(key="exp_budgets_B").value == "1-10"
    at.radio(key="exp_protocol").set_value("A").run()
    assert at.text_input(key="exp_budgets_A").value == "20"
    assert not at.exception and not at.warning


def test_the_page_states_datasets_and_protocol_before_a_run(data_dir):
    """Check the sentence above Run names the protocol and every chosen dataset,
    and the progress bar starts with it."""
    at = _small_experiment()
    at.multiselect(key="exp_datasets").set_value(["sample (planted)", "toy"]).run()
    (info,) = [i.value for i in at.info if i.value.startswith("Run computes")]
    assert "protocol A on 2 dataset(s): sample, toy" in info
    assert "budgets 10, 50 (% of M), 2-fold CV" in info
    at.radio(key="exp_protocol").set_value("B").run()
    at.selectbox(key="exp_split_B").set_value("own").run()
    (info,) = [i.value for i in at.info if i.value.startswith("Run computes")]
    assert "protocol B on 2 dataset(s)" in info
    assert "the dataset's own train/test split" in info


def test_protocol_b_own_split_has_no_folds_and_no_solver_line():
    """Check: no "Folds (CV)" for an own/holdout split, and an ML-kNN run's
    summary does not count per-label fits stopped at max_iter."""
    at = open_page(new_app(), "experiment")
    at.radio(key="exp_protocol").set_value("B").run()
    at.selectbox(key="exp_split_B").set_value("holdout").run()
    assert "Folds (CV)" not in [n.label for n in at.text_input]
    at.multiselect(key="exp_methods_B").set_value(["PPT-MI"]).run()
    at.text_input(key="exp_budgets_B").set_value("1-3").run()
    at.button(key="exp_run").click().run()
    assert not at.exception and not at.error
    assert not any("max_iter" in c.value for c in at.caption)
    at.selectbox(key="exp_split_B").set_value("cv").run()
    assert "Folds (CV)" in [n.label for n in at.text_input]


def test_an_estimate_before_the_run_and_a_quick_variant_for_a_long_one(monkeypatch):
    """Check: "Estimate the run time" times one ranking and one fit and says
    "about ... on this machine"; past the long-run limit it offers a quick
    variant, which sets fewer budgets, 2 folds and l2-rows when chosen."""
    from ui.sections import experiment_form

    at = open_page(new_app(), "experiment")
    at.text_input(key="exp_budgets_A").set_value("10, 20, 30, 40, 50").run()
    at.button(key="exp_estimate").click().run()
    assert not at.exception and not at.error
    (info,) = [i.value for i in at.info if "on this machine" in i.value]
    assert info.startswith("About ") and "extrapolated from one of each" in info
    # 6 methods x 3 folds rankings; 5 methods x 3 folds x 5 budgets + AF's 3 fits
    assert f"{6 * 3} rankings and {5 * 3 * 5 + 3} classifier fits" in info
    assert not [b for b in at.button if b.key == "exp_quick"]  # short: no offer
    monkeypatch.setattr(experiment_form, "LONG_RUN_S", 0.0)
    at.button(key="exp_estimate").click().run()
    assert any("long run" in w.value for w in at.warning)
    at.button(key="exp_quick").click().run()
    assert at.text_input(key="exp_budgets_A").value == "10, 30, 50"
    assert at.text_input(key="exp_folds_A").value == "2"
    assert at.selectbox(key="exp_scaling_A").value == "l2-rows"
    assert not [i for i in at.info if "on this machine" in i.value]  # new settings


def _infos(at) -> list[str]:
    return [i.value for i in at.info if i.value.startswith("Run computes")]


def test_out_of_range_numbers_stop_the_run_with_an_error_naming_the_box():
    """Check (issue 43, item 10): Folds 1e9, Random runs 9 or a seed past 64 bits
    is an st.error naming the box and its range; no summary describes other
    settings, and Run is disabled: nothing runs (it was: a red box, the summary
    "3-fold CV", and Run ran with 3 folds)."""
    from ui import state

    at = _small_experiment()
    assert "2-fold CV" in _infos(at)[0]
    at.text_input(key="exp_folds_A").set_value("1e9").run()
    assert not at.exception
    (error,) = [e.value for e in at.error]
    assert "Folds (CV) must be a whole number from 2 to 10, not 1e9." in error
    assert not _infos(at)  # no summary of settings that would not run
    assert at.button(key="exp_run").disabled  # AppTest, like a browser, cannot click
    assert not at.progress and at.session_state[state.EXPERIMENT_RESULTS] is None
    at.text_input(key="exp_folds_A").set_value("2.5").run()
    assert "not 2.5" in at.error[0].value
    at.text_input(key="exp_folds_A").set_value("2").run()
    at.text_input(key="exp_repeats_A").set_value("9").run()
    assert "Random runs must be a whole number from 1 to 5, not 9." in at.error[0].value
    at.text_input(key="exp_repeats_A").set_value("1").run()
    # The sidebar's seed box is a text box: 1e25 reaches the server as typed
    # and is refused by name; no page runs (no summary, no Run) until it is fixed.
    for typed in ("1e25", str(10**25), "-3", "2.5"):
        at.text_input(key="seed").set_value(typed).run()
        assert not at.exception
        (error,) = [e.value for e in at.error]
        assert f"Seed must be a whole number from 0 to {2**63 - 1}, not {typed!r}" in (
            error
        )
        assert not _infos(at) and "exp_run" not in [b.key for b in at.button]
    at.text_input(key="seed").set_value("4").run()
    assert not at.error and "2-fold CV, seed 4." in _infos(at)[0]


def test_a_config_with_out_of_range_folds_shows_them_with_the_error():
    """Check: a loaded config's 20 folds is put in the box and named by the error,
    not silently clamped to 10."""
    toml = (
        'name = "t"\nseed = 1\nmethods = ["MaxCS"]\n[protocol]\nname = "A"\n'
        'budgets = [10]\nn_folds = 20\n[[datasets]]\npath = "sample"\n'
    )
    at = open_page(new_app(), "experiment")
    at.file_uploader(key="exp_config_upload").set_value(
        ("c.toml", toml.encode(), "application/toml")
    ).run()
    assert not at.exception
    assert at.text_input(key="exp_folds_A").value == "20"
    assert any(
        "Folds (CV) must be a whole number from 2 to 10" in e.value for e in at.error
    )
    assert at.button(key="exp_run").disabled


def _stopping_after(monkeypatch, tasks: int) -> None:
    """Make the next run stop (as Stop does) after ``tasks`` finished tasks."""
    from streamlit.runtime.scriptrunner_utils.exceptions import StopException

    from ui.sections import experiment as section

    real = section.run_experiment

    def stopped(config, *, progress, **kwargs):
        def report(done, total, message):
            progress(done, total, message)
            if done >= tasks:
                monkeypatch.setattr(section, "run_experiment", real)
                raise StopException()

        return real(config, progress=report, **kwargs)

    monkeypatch.setattr(section, "run_experiment", stopped)


def test_stop_fences_the_earlier_results_and_says_what_was_kept(monkeypatch):
    """Check (issue 43, item 9): after Stop during a 25/45 % run, the 20/40/60 %
    results are under a heading and a notice naming their settings, and a
    notice says what of the stopped run was kept; Run then replaces them."""
    from ui import state

    at = _small_experiment()
    at.text_input(key="exp_budgets_A").set_value("20, 40, 60").run()
    at.button(key="exp_run").click().run()
    assert not at.exception and not at.error
    assert [s.value for s in at.subheader] == ["Results of this session's experiment"]
    assert not at.warning
    at.text_input(key="exp_budgets_A").set_value("25, 45").run()
    _stopping_after(monkeypatch, 3)
    at.button(key="exp_run").click().run()  # stops after 3 tasks
    at.button(key="exp_stop").click().run()  # Stop's rerun
    assert not at.exception
    stopped, earlier = (w.value for w in at.warning)
    assert stopped.startswith("**Stopped after 3 of ")
    assert "tasks: no results of the settings above yet.**" in stopped
    assert "Kept: the 3 finished tasks, in the cache" in stopped
    assert "The stopped run: protocol A" in stopped
    assert "budgets 25, 45 (% of M), 2-fold CV" in stopped
    headings = [s.value for s in at.subheader]
    assert headings[0] == "Results of earlier settings, not of the settings above"
    assert "Results of this session's experiment" not in headings
    assert "budgets 20, 40, 60 (% of M)" in earlier
    assert "25" not in earlier.split("budgets")[1].split("(")[0]
    assert set(at.dataframe[0].value["budget_pct"]) == {20.0, 40.0, 60.0}
    at.button(key="exp_run").click().run()  # resumes; this time to the end
    assert not at.exception and not at.error and not at.warning
    assert [s.value for s in at.subheader][0] == "Results of this session's experiment"
    assert set(at.dataframe[0].value["budget_pct"]) == {25.0, 45.0}
    folder = at.session_state[state.EXPERIMENT_RESULTS]
    assert "budgets 25, 45" in (Path(folder) / "settings.txt").read_text()


def test_changed_settings_fence_the_results_until_they_are_run_again():
    """Check: results under changed settings are labelled as those of earlier
    settings; back to the run's settings, they are this run's again."""
    at = _small_experiment()
    at.button(key="exp_run").click().run()
    assert [s.value for s in at.subheader] == ["Results of this session's experiment"]
    at.multiselect(key="exp_methods_A").set_value(["MaxCS"]).run()
    assert at.subheader[0].value.startswith("Results of earlier settings")
    assert "2 method(s) (MaxCS, Random)" in at.warning[0].value
    at.multiselect(key="exp_methods_A").set_value(["MaxCS", "Random"]).run()
    assert [s.value for s in at.subheader] == ["Results of this session's experiment"]
    assert not at.warning


def test_every_choice_is_in_the_url_and_a_pasted_link_opens_the_same_form(data_dir):
    """Check (issue 43, item 3): the Experiment page's choices survive a visit
    of another page, are in the URL's query string, and a fresh session opened
    with that query string (a pasted link) shows the same form."""
    from streamlit.testing.v1 import AppTest

    from ..conftest import APP, PAGE_PATHS

    chosen = {
        "exp_datasets": ["sample (planted)", "toy"],
        "exp_methods_A": ["MaxCS", "Random"],
        "exp_budgets_A": "25, 45",
        "exp_folds_A": "4",
        "exp_repeats_A": "2",
        "exp_scaling_A": "l2-rows",
        "exp_binarize_A": "median",
    }
    at = open_page(new_app(), "experiment")
    for key, value in chosen.items():
        _widget(at, key).set_value(value).run()
    open_page(at, "rank")
    open_page(at, "experiment")
    assert {key: _widget(at, key).value for key in chosen} == chosen
    params = dict(at.query_params)
    # Streamlit writes an option as shown: "MaxCS · <its family>"
    assert [v.split(" · ")[0] for v in params["exp_methods_A"]] == ["MaxCS", "Random"]
    assert params["exp_budgets_A"] == "25, 45" and params["exp_folds_A"] == "4"
    assert params["exp_datasets"] == ["sample (planted)", "toy"]
    assert "exp_protocol" not in params  # a default value stays out of the URL
    pasted = AppTest.from_file(APP, default_timeout=60)
    pasted.query_params.update(params)
    pasted.switch_page(PAGE_PATHS["experiment"]).run()
    assert not pasted.exception
    assert {key: _widget(pasted, key).value for key in chosen} == chosen
    assert (
        "protocol A on 2 dataset(s): sample, toy; 2 method(s) (MaxCS, Random) at "
        "budgets 25, 45 (% of M), 4-fold CV"
    ) in _infos(pasted)[0]


def _widget(at, key: str):
    for kind in ("multiselect", "text_input", "selectbox", "radio"):
        found = [w for w in getattr(at, kind) if w.key == key]
        if found:
            return found[0]
    raise KeyError(key)


def _in_order(node):
    """Every element under ``node`` in page order."""
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _in_order(child)


def test_presentation_mode_puts_the_run_chart_first():
    """Check: with presentation mode on, the run's chart is drawn above the form
    (right under the title); results of earlier settings say so there too."""
    at = _small_experiment()
    at.session_state["present"] = True
    at.button(key="exp_run").click().run()
    assert not at.exception and not at.error

    def order():
        kinds = [getattr(e, "type", "") for e in _in_order(at.main)]
        keys = [getattr(e, "key", None) for e in _in_order(at.main)]
        return kinds.index("plotly_chart"), keys.index("exp_datasets")

    chart, form = order()
    assert chart < form
    assert not [c for c in at.caption if "Results of earlier settings" in c.value]
    at.text_input(key="exp_budgets_A").set_value("20").run()
    chart, form = order()
    assert chart < form
    (note,) = [c for c in at.caption if "Results of earlier settings" in c.value]
    at.session_state["present"] = False
    at.run()
    chart, form = order()
    assert chart > form


def test_a_reloaded_page_shows_the_run_as_this_runs_results(data_dir):
    """Check a reload (a new session with the URL's query string, workspace
    token included): the form comes back with the run's settings, so its
    results are this run's, not fenced as earlier settings; the run folder
    keeps its settings sentence (read after a server restart too)."""
    from streamlit.testing.v1 import AppTest

    from ui import state

    from ..conftest import APP, PAGE_PATHS

    at = _small_experiment()
    at.multiselect(key="exp_datasets").set_value(["sample (planted)", "toy"]).run()
    at.button(key="exp_run").click().run()
    assert not at.exception and not at.error
    open_page(at, "data")
    open_page(at, "experiment")  # the URL holds the page's values again
    params = dict(at.query_params)
    assert "ws" in params and "exp_budgets_A" in params
    again = AppTest.from_file(APP, default_timeout=60)
    again.query_params.update(params)
    again.switch_page(PAGE_PATHS["experiment"]).run()
    assert not again.exception and not again.error
    assert (
        again.session_state[state.EXPERIMENT_RESULTS]
        == (at.session_state[state.EXPERIMENT_RESULTS])
    )
    headings = [s.value for s in again.subheader]
    assert headings == ["Results of this session's experiment"]
    assert set(again.dataframe[0].value["method"]) == {"MaxCS", "Random"}
    folder = Path(again.session_state[state.EXPERIMENT_RESULTS])
    assert (
        (folder / "settings.txt")
        .read_text()
        .startswith(
            "protocol A on 2 dataset(s): sample, toy; 2 method(s) (MaxCS, Random)"
        )
    )


def test_stop_while_a_second_run_starts_says_so(monkeypatch):
    """Check (issue 54, item 7): Stop taking effect while a second run is
    "Starting" (at its first element, the progress bar, before any task)
    leaves a message saying the run stopped while starting and kept nothing."""
    from streamlit.runtime.scriptrunner_utils.exceptions import StopException

    from ui.sections import experiment_form

    at = _small_experiment()
    at.button(key="exp_run").click().run()  # the first run, to the end
    assert not at.exception and not at.error and not at.warning
    at.text_input(key="exp_budgets_A").set_value("25, 45").run()
    real = experiment_form.st.progress

    def stop_at_the_bar(*args, **kwargs):
        monkeypatch.setattr(experiment_form.st, "progress", real)
        raise StopException()  # where Streamlit handles a Stop request

    monkeypatch.setattr(experiment_form.st, "progress", stop_at_the_bar)
    at.button(key="exp_run").click().run()
    at.button(key="exp_stop").click().run()  # Stop's rerun
    assert not at.exception
    stopped = [w.value for w in at.warning if "Stopped" in w.value]
    assert len(stopped) == 1, [w.value for w in at.warning]
    assert stopped[0].startswith("**Stopped while starting: no results of the")
    assert "Kept: nothing, no task had finished" in stopped[0]
    assert "budgets 25, 45 (% of M)" in stopped[0]
