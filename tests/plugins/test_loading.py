"""Loading plug-ins: files, modules, entry points, MLFS_PLUGINS, idempotence, errors."""

from __future__ import annotations

import json
import textwrap

import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation.classifiers import CLASSIFIERS
from mlfs_core.evaluation.metrics import METRICS
from mlfs_core.selectors import METHODS

from .conftest import run_mlfs, run_python


def test_a_file_registers_its_method_classifier_and_metric(fresh_plugins, plugin_file):
    """Check that loading the example file registers its three things, reported
    with their versions and the file's digest."""
    infos = fresh_plugins.load_plugins([plugin_file], entry_points=False)
    assert [i.kind for i in infos] == ["file"]
    info = infos[0]
    assert info.methods == (("SumPearson", "1"),)
    assert info.classifiers == ("ridge_br",)
    assert info.metrics == ("cardinality_error",)
    assert info.digest == fresh_plugins.file_digest(plugin_file)
    assert "SumPearson" in METHODS and "ridge_br" in CLASSIFIERS
    assert "cardinality_error" in METRICS
    assert fresh_plugins.plugin_specs() == (str(plugin_file.resolve()),)
    assert info in fresh_plugins.loaded_plugins()


def test_loading_twice_loads_once(fresh_plugins, plugin_file, monkeypatch):
    """Check that a spec loaded again (also by a relative path) is not re-run."""
    first = fresh_plugins.load_plugins([plugin_file], entry_points=False)
    monkeypatch.chdir(plugin_file.parent)
    again = fresh_plugins.load_plugins(["example_plugin.py"], entry_points=False)
    assert again == first
    assert list(METHODS).count("SumPearson") == 1


def test_relative_paths_resolve_against_base(fresh_plugins, plugin_file, tmp_path):
    """Check that base= is the folder relative paths start from (like a config's)."""
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    with pytest.raises(ConfigError, match="plugin file 'example_plugin.py' not found"):
        fresh_plugins.load_plugins(["example_plugin.py"], base=elsewhere)
    infos = fresh_plugins.load_plugins(["example_plugin.py"], base=plugin_file.parent)
    assert infos[-1].source == str(plugin_file.resolve())


def test_a_file_changed_on_disk_is_an_error(fresh_plugins, plugin_file):
    """Check that asking again for a file whose bytes changed raises, naming it."""
    fresh_plugins.load_plugins([plugin_file], entry_points=False)
    plugin_file.write_text(plugin_file.read_text() + "\n# edited\n")
    with pytest.raises(ConfigError, match="changed on disk since this process"):
        fresh_plugins.load_plugins([plugin_file], entry_points=False)


def test_a_failing_plugin_names_file_and_line_and_leaves_nothing(
    fresh_plugins, tmp_path
):
    """Check that an exception while loading names the file and line and that
    what the plug-in registered before failing is removed again."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        textwrap.dedent(
            """\
            from mlfs_core.selectors import register

            def Half(X, Y, *, k, random_state):
                return list(range(k))

            register(Half)
            raise RuntimeError("boom")
            """
        )
    )
    where = rf"RuntimeError: boom \(file {bad}, line 7\)"
    already = fresh_plugins.loaded_plugins()  # entry points other tests loaded
    with pytest.raises(ConfigError, match=where):
        fresh_plugins.load_plugins([bad], entry_points=False)
    assert "Half" not in METHODS
    assert fresh_plugins.loaded_plugins() == already
    assert all(info.source != str(bad) for info in fresh_plugins.loaded_plugins())


def test_syntax_errors_and_missing_modules_are_one_clear_error(fresh_plugins, tmp_path):
    """Check the messages for a syntax error, a missing module and a bad spec."""
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    with pytest.raises(ConfigError, match=rf"SyntaxError.*file {broken}, line 1"):
        fresh_plugins.load_plugins([broken], entry_points=False)
    with pytest.raises(ConfigError, match="module 'no_such_plugin' not found"):
        fresh_plugins.load_plugins(["no_such_plugin"], entry_points=False)
    with pytest.raises(ConfigError, match="neither a module name nor a .py file"):
        fresh_plugins.load_plugins(["not a module"], entry_points=False)


def test_a_name_taken_is_refused_with_the_plugin_named(fresh_plugins, tmp_path):
    """Check that a plug-in registering a built-in's name fails, naming itself."""
    clash = tmp_path / "clash.py"
    clash.write_text(
        "from mlfs_core.selectors import register\n"
        "def MaxCS(X, Y, *, k, random_state):\n    return list(range(k))\n"
        "register(MaxCS)\n"
    )
    with pytest.raises(ConfigError, match=r"plugin file .*clash.py: a method called"):
        fresh_plugins.load_plugins([clash], entry_points=False)


_LIST = (
    "import json, mlfs_core.plugins as p;"
    "print(json.dumps([[i.kind, i.name, i.methods] for i in p.load_plugins()]))"
)


def test_entry_point_of_the_installed_example_package(example_site, tmp_path):
    """Check that the installed package's entry point is found and loaded."""
    done = run_python(["-c", _LIST], cwd=tmp_path, pythonpath=[example_site])
    assert done.returncode == 0, done.stderr
    kinds = json.loads(done.stdout)
    assert ["entry point", "example", [["Spread", "1.0"]]] in kinds


def test_environment_variable_names_plugins(plugin_file, tmp_path):
    """Check that MLFS_PLUGINS loads a file (what whoever starts the app sets)."""
    done = run_python(
        ["-c", _LIST],
        cwd=tmp_path,
        env={"MLFS_PLUGINS": str(plugin_file)},
    )
    assert done.returncode == 0, done.stderr
    assert ["file", "example_plugin.py", [["SumPearson", "1"]]] in json.loads(
        done.stdout
    )


def test_cli_plugin_option_before_or_after_the_sub_command(plugin_file, tmp_path):
    """Check that --plugin works on both sides of the sub-command, and that a
    missing plug-in is one error line with exit status 2."""
    for args in (
        ["--plugin", plugin_file, "methods"],
        ["methods", "--plugin", plugin_file],
    ):
        done = run_mlfs(args, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "SumPearson,user" in done.stdout
    done = run_mlfs(["methods", "--plugin", "missing.py"], cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "plugin file 'missing.py' not found" in done.stderr


def test_mlfs_methods_lists_an_installed_package_method(example_site, tmp_path):
    """Check that ``mlfs methods`` shows the installed package's method and family."""
    done = run_mlfs(["methods"], cwd=tmp_path, pythonpath=[example_site])
    assert done.returncode == 0, done.stderr
    assert "Spread,example" in done.stdout
