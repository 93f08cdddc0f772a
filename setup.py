"""The build's one hook: the guides (docs/*.md) and the examples (examples/*.toml) are
copied into the package, so an installed dicecli has them (``dicecli help grammar``,
``dicecli examples``). In a source checkout they are read where they are
(:mod:`dicecli.bundled`). Everything else about the build is in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

BUNDLED = {"docs": "*.md", "examples": "*.toml"}
"""Each folder of the repository that ships in the package, and the files of it that do."""


class BuildWithGuidesAndExamples(build_py):  # type: ignore[misc]
    """setuptools' build of the package, then the guides and examples copied into
    ``dicecli/_bundled/`` (an editable install reads them from the checkout instead)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for folder, pattern in BUNDLED.items():
            target = Path(self.build_lib, "dicecli", "_bundled", folder)
            self.mkpath(str(target))
            for source in sorted(Path(folder).glob(pattern)):
                self.copy_file(str(source), str(target / source.name))


setup(cmdclass={"build_py": BuildWithGuidesAndExamples})
