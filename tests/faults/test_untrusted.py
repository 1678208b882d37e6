"""An untrusted results folder: checking it runs none of its code unless asked."""

from __future__ import annotations

import pytest

from mlfs_core.evaluation.runner.guard.trust import (
    UntrustedPlugins,
    check_config_trusted,
)

EVIL = """from pathlib import Path

Path(__file__).with_name("ran.txt").write_text("the plug-in ran")
"""


@pytest.fixture
def received(tmp_path, helpers):
    """A results folder whose config names evil_plugin.py (which marks its runs)."""
    (tmp_path / "evil_plugin.py").write_text(EVIL)
    config = tmp_path / "c.toml"
    config.write_text('plugins = ["evil_plugin.py"]\n' + helpers.FAST_CONFIG)
    out = tmp_path / "out"
    run = helpers.mlfs("experiment", config, "--out", out)
    _, err = run.communicate(timeout=180)
    assert run.returncode == 0, err[-2000:]
    assert f"plug-ins imported from the config: {tmp_path / 'evil_plugin.py'}" in err
    (tmp_path / "ran.txt").unlink()
    return out


def test_verify_refuses_and_runs_nothing(received, helpers):
    """Check mlfs verify names the plug-in file and does not import it."""
    run = helpers.mlfs("verify", received, "--sample", "1")
    _, err = run.communicate(timeout=120)
    assert run.returncode == 2
    assert str(received.parent / "evil_plugin.py") in err
    assert "--trust-plugins" in err and "nothing was run" in err
    assert not (received.parent / "ran.txt").exists()


def test_verify_with_trust_plugins_runs_it(received, helpers):
    """Check that --trust-plugins is the user's choice to run it (and says so)."""
    run = helpers.mlfs("verify", received, "--sample", "1", "--trust-plugins")
    out, err = run.communicate(timeout=180)
    assert run.returncode == 0, err[-2000:]
    assert "identical" in out
    assert (received.parent / "ran.txt").exists()
    assert "plug-ins imported from the config" in err


def test_a_module_plugin_not_installed_is_untrusted(tmp_path):
    """Check a module name that is no installed entry point, and a trusted config."""
    config = tmp_path / "c.toml"
    config.write_text('plugins = ["somebody_elses_module"]\nmethods = ["MaxCS"]\n')
    with pytest.raises(UntrustedPlugins, match="module somebody_elses_module"):
        check_config_trusted(config, trust=False, command="mlfs verify")
    assert check_config_trusted(config, trust=True, command="x") == [
        "module somebody_elses_module"
    ]
    plain = tmp_path / "p.toml"
    plain.write_text('methods = ["MaxCS"]\n')
    assert check_config_trusted(plain, trust=False, command="x") == []


def test_the_apps_config_upload_imports_no_plugin(tmp_path):
    """Check that a config uploaded to the app naming a plug-in file is refused."""
    from mlfs_core.evaluation.runner.guard.trust import UntrustedPlugins
    from ui.sections import experiment

    evil = tmp_path / "evil_plugin.py"
    evil.write_text(EVIL)
    text = f'plugins = ["{evil}"]\n' + 'methods = ["MaxCS"]\ndatasets = ["sample"]\n'
    with pytest.raises(UntrustedPlugins) as info:
        experiment.read_config(text)
    assert str(evil) in str(info.value)
    assert "mlfs app --plugin" in str(info.value)
    assert not (tmp_path / "ran.txt").exists()
    plain = experiment.read_config('methods = ["MaxCS"]\ndatasets = ["sample"]\n')
    assert plain.plugins == ()


def test_benchmark_refuses_a_suite_config_naming_plugin_code(tmp_path):
    """Check mlfs benchmark's comparison: a suite whose config names a plug-in file."""
    from mlfs_core.benchmark import QuickPlan, Suite, run_benchmark

    (tmp_path / "evil_plugin.py").write_text(EVIL)
    config = tmp_path / "study.toml"
    config.write_text('plugins = ["evil_plugin.py"]\nmethods = ["MaxCS"]\n')
    suite = Suite(
        name="received",
        title="a study someone sent",
        config=config,
        data_dir=tmp_path,
        methods=("MaxCS",),
        metric="micro_f1",
        quick=QuickPlan(datasets=()),
    )
    with pytest.raises(UntrustedPlugins, match="evil_plugin.py"):
        run_benchmark(suite, "MeanCS")
    assert not (tmp_path / "ran.txt").exists()


def test_the_engine_trusts_what_the_caller_chose_not_the_environment(
    tmp_path, monkeypatch
):
    """Check MLFS_PLUGINS alone trusts nothing in the engine; the specs the
    command line reads from it (passed as chosen) are trusted."""
    from mlfs_core.cli._base import chosen_plugins

    config = tmp_path / "c.toml"
    config.write_text('plugins = ["somebody_elses_module", "mine.py"]\n')
    monkeypatch.setenv("MLFS_PLUGINS", "somebody_elses_module")
    with pytest.raises(UntrustedPlugins, match="module somebody_elses_module"):
        check_config_trusted(config, trust=False, command="x")
    chosen = chosen_plugins()
    assert chosen == ["somebody_elses_module"]
    untrusted = check_config_trusted(config, trust=True, command="x", chosen=chosen)
    assert untrusted == [str((tmp_path / "mine.py").resolve())]
    both = [*chosen, str(tmp_path / "mine.py")]
    assert check_config_trusted(config, trust=False, command="x", chosen=both) == []


def test_verify_trusts_the_plugins_its_environment_names(received):
    """Check mlfs verify still trusts the plug-in file MLFS_PLUGINS names (the
    user's choice: loaded at start, and passed down as chosen): it runs it
    without --trust-plugins."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    plugin = received.parent / "evil_plugin.py"
    env = dict(os.environ, MLFS_PLUGINS=str(plugin), PYTHONPATH=str(root))
    env.pop("MLFS_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-m", "mlfs_core", "verify", str(received), "--sample", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "identical" in done.stdout
    assert (received.parent / "ran.txt").exists()
