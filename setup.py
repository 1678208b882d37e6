"""What the wheel holds; the metadata is in pyproject.toml.

The repository keeps the app at its top level (``app.py``, ``app_pages/``,
``ui/``, ``.streamlit/``) and the sample in ``sample_data/``, so that
``streamlit run app.py`` works in a checkout. A wheel cannot put those at the
top of ``site-packages``, so the package-dir mapping below renames them:

- the engine and the CLI: ``mlfs_core`` and every package under it;
- the app: the folder ``mlfs_app/`` maps the repository's top level, with
  only ``app.py``, the pages, ``ui`` and ``.streamlit/config.toml`` listed
  (``streamlit run mlfs_app/app.py`` puts ``mlfs_app/`` on ``sys.path``, so
  the pages' ``import ui`` works as in a checkout, and Streamlit reads the
  ``.streamlit/config.toml`` beside the entry script);
- the sample: ``sample_data/`` becomes ``mlfs_core/sample_data/``, where
  :mod:`mlfs_core.data.bundled` finds it.

- the browser tests' and bench scripts' support package ``uitest`` (serving
  the app, driving Chromium) is listed so that an editable install
  (``pip install -e ".[test]"``) makes it importable from ``bench/`` and
  ``tests/``; :class:`BuildPy` leaves it out of the wheel: it is not the
  app's or the engine's.

The studies and everything else of the two papers are another distribution,
``mlfs-papers`` (``mlfs_papers/setup.py``): this wheel holds none of them.

``mlfs app`` (:mod:`mlfs_core.cli.app`) runs the checkout's ``app.py`` when it
is beside ``mlfs_core``, else the installed ``mlfs_app/app.py``.
"""

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

APP = "mlfs_app"
SAMPLE = "mlfs_core.sample_data"
TEST_SUPPORT = "uitest"


class BuildPy(build_py):
    """build_py that leaves this script out of ``mlfs_app`` (the top level)
    and the test support package out of the wheel."""

    def find_package_modules(self, package, package_dir):
        """The package's modules, without ``mlfs_app.setup`` or ``uitest``."""
        if package == TEST_SUPPORT:
            return []
        modules = super().find_package_modules(package, package_dir)
        return [m for m in modules if (m[0], m[1]) != (APP, "setup")]


setup(
    cmdclass={"build_py": BuildPy},
    packages=[
        *find_namespace_packages(
            include=["mlfs_core", "mlfs_core.*"], exclude=["*.__pycache__"]
        ),
        APP,
        f"{APP}.app_pages",
        f"{APP}.ui",
        f"{APP}.ui.sections",
        SAMPLE,
        TEST_SUPPORT,
    ],
    package_dir={
        APP: ".",
        SAMPLE: "sample_data",
    },
    package_data={
        APP: [".streamlit/config.toml", "app_pages/README.md", "ui/favicon.png"],
        SAMPLE: ["*.arff", "*.xml", "*.json", "results/*.*", "results/*/*.csv"],
        "mlfs_core.lessons": ["*.toml"],  # the bundled lessons
    },
)
