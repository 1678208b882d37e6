"""What the papers' wheel (``mlfs-papers``) holds; the metadata is in pyproject.toml.

The package is this folder (``package_dir`` maps ``mlfs_papers`` to ``.``), so
``import mlfs_papers`` works from the repository's root as well as installed.
The build step :class:`BuildPy` adds, as package data, what the two studies
keep at the repository's top level and their suites need outside a checkout:

- their configs ``configs/study_NAME.toml`` as ``mlfs_papers/_study_configs/``;
- their committed results ``studies/NAME/data/`` and published tables
  (``studies/NAME/published.csv``, ``studies/NAME/statements.csv``) as
  ``mlfs_papers/_study_data/NAME/``,

where :mod:`mlfs_papers._suites` finds them. The wheel is built from the
checkout (``pip wheel ./mlfs_papers``), which holds those files.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PACKAGE = "mlfs_papers"
HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHIPPED_STUDIES = ("paper000", "paper001")  # the suites of mlfs benchmark
TABLES = ("published.csv", "statements.csv")  # a study's published numbers


def study_files() -> dict[Path, str]:
    """Each shipped study file of the checkout -> its path inside the package."""
    files = {}
    for name in SHIPPED_STUDIES:
        config = REPO / "configs" / f"study_{name}.toml"
        files[config] = f"_study_configs/{config.name}"
        study = REPO / "studies" / name
        for path in sorted((study / "data").glob("*/*")):
            files[path] = f"_study_data/{path.relative_to(study.parent).as_posix()}"
        for table in TABLES:
            if (study / table).is_file():
                files[study / table] = f"_study_data/{name}/{table}"
    return files


class BuildPy(build_py):
    """build_py that leaves this script out and copies the studies' files in."""

    def find_package_modules(self, package, package_dir):
        """The package's modules, without ``mlfs_papers.setup``."""
        modules = super().find_package_modules(package, package_dir)
        return [m for m in modules if (m[0], m[1]) != (PACKAGE, "setup")]

    def run(self):
        """Lay the modules out, then the studies' configs, data and tables."""
        super().run()
        files = study_files()
        if not files:
            raise SystemExit("mlfs-papers is built from the repository's checkout")
        target = Path(self.build_lib) / PACKAGE
        for source, name in files.items():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target / name)


setup(
    cmdclass={"build_py": BuildPy},
    packages=[PACKAGE, f"{PACKAGE}.paper000", f"{PACKAGE}.paper001"],
    package_dir={PACKAGE: "."},
)
