"""The package declares ranges for its users and the repository locks exact
versions inside them (docs/python.md, "Dependencies")."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def project() -> dict[str, object]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        table: dict[str, object] = tomllib.load(f)["project"]
    return table


def lock() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements-lock.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, sep, version = line.partition("==")
            assert sep and version, f"requirements-lock.txt: {line!r} is not NAME==VERSION"
            pins[canonicalize_name(name)] = version
    return pins


def requirements() -> list[Requirement]:
    table = project()
    extras = table["optional-dependencies"]
    assert isinstance(extras, dict)
    deps = table["dependencies"]
    assert isinstance(deps, list)
    return [Requirement(r) for r in deps + [r for rs in extras.values() for r in rs]]


def test_the_dependencies_are_ranges_with_both_ends() -> None:
    deps = project()["dependencies"]
    assert isinstance(deps, list) and deps
    for text in deps:
        ops = {s.operator for s in Requirement(text).specifier}
        assert ops == {">=", "<"}, f"{text!r}: a dependency is a range >=LOW,<HIGH, not {ops}"


def test_no_requirement_is_pinned_exactly() -> None:
    for req in requirements():
        assert not any(s.operator in ("==", "===", "~=") for s in req.specifier), f"{req} pins a version"


def test_the_lock_holds_every_requirement_inside_its_range() -> None:
    pins = lock()
    for req in requirements():
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is not in requirements-lock.txt"
        assert req.specifier.contains(pins[name]), f"the lock's {req.name}=={pins[name]} is outside {req}"
