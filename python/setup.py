"""The build of the package, which pyproject.toml describes; this file adds
only the platform wheel that carries the anynt program (`make wheel`).

Given ANYNT_WHEEL_BINARY (the path of an anynt built with CGO_ENABLED=0) and
ANYNT_WHEEL_GOOS / ANYNT_WHEEL_GOARCH (what it was built for), the wheel
carries it as anynt/_bin/anynt (anynt.exe on Windows), executable, and is
tagged py3-none-<platform> for that platform (docs/python.md says why these
tags). Without them the build is the plain one: a pure wheel (or an sdist)
without a program, which finds anynt through ANYNT_BIN or PATH.
"""

from __future__ import annotations

import os
import shutil

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

# Go's GOOS/GOARCH to the wheel's platform tag. A static Go program needs no
# C library, so the Linux tags claim the oldest platform Go itself runs on
# (kernel 3.2: manylinux2014, whose CentOS 7 has 3.10), on glibc or musl.
PLATFORMS = {
    ("linux", "amd64"): "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64",
    ("linux", "arm64"): "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64",
    ("darwin", "amd64"): "macosx_12_0_x86_64",  # Go 1.25+ needs macOS 12
    ("darwin", "arm64"): "macosx_12_0_arm64",
    ("windows", "amd64"): "win_amd64",
    ("windows", "arm64"): "win_arm64",
}

BINARY = os.environ.get("ANYNT_WHEEL_BINARY")


def platform_tag() -> str:
    goos = os.environ.get("ANYNT_WHEEL_GOOS", "")
    goarch = os.environ.get("ANYNT_WHEEL_GOARCH", "")
    try:
        return PLATFORMS[(goos, goarch)]
    except KeyError:
        known = ", ".join(f"{o}/{a}" for o, a in PLATFORMS)
        raise SystemExit(
            f"no wheel platform for ANYNT_WHEEL_GOOS={goos!r} ANYNT_WHEEL_GOARCH={goarch!r}: one of {known}"
        ) from None


class BuildPy(build_py):
    """Copies the program into the build, when given; never leaves an older one there."""

    def run(self) -> None:
        super().run()
        target = os.path.join(self.build_lib, "anynt", "_bin")
        shutil.rmtree(target, ignore_errors=True)
        if BINARY:
            platform_tag()  # an unknown platform fails before the copy
            if not (os.path.isfile(BINARY) and os.access(BINARY, os.X_OK)):
                raise SystemExit(f"ANYNT_WHEEL_BINARY={BINARY!r} is not an executable file")
            name = "anynt.exe" if os.environ.get("ANYNT_WHEEL_GOOS") == "windows" else "anynt"
            os.makedirs(target)
            # copy_file keeps the mode: the wheel records the executable bit,
            # which pip restores on install.
            self.copy_file(BINARY, os.path.join(target, name))


class PlatformDistribution(Distribution):
    """With a program to carry, a distribution for one platform: the package
    installs into platlib, at the wheel's root, as one with extension modules."""

    def has_ext_modules(self) -> bool:
        return bool(BINARY)


class BdistWheel(bdist_wheel):
    """A wheel for one platform but for any Python 3 (it has no extension modules)."""

    def get_tag(self) -> tuple[str, str, str]:
        if not BINARY:
            return super().get_tag()
        return ("py3", "none", platform_tag())


setup(distclass=PlatformDistribution, cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel})
