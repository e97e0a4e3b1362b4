"""requirements.txt pins, section by section, exactly what pyproject.toml asks for: its dependencies (what
`pip install .` brings) and each extra (`[test]`, `[bench]`, `[plot]`, `[postgres]`), each pin inside the
range pyproject gives. So a test-only or benchmark package cannot slip into what every install pulls."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[2]
SECTION = re.compile(r"^#\s*\[([a-z]+)\]")


def pinned_sections(text: str) -> dict[str, dict[str, str]]:
    """requirements.txt: section ("dependencies" or an extra's name) -> {package: pinned version}."""
    sections: dict[str, dict[str, str]] = {}
    current = None
    for line in text.splitlines():
        heading = SECTION.match(line)
        if heading:
            current = sections.setdefault(heading.group(1), {})
            continue
        pin = line.split("#", 1)[0].strip()
        if pin:
            assert current is not None, f"{pin!r} comes before any [section] heading"
            name, version = pin.split("==")
            current[canonicalize_name(name)] = version
    return sections


def project_sections() -> dict[str, list[Requirement]]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    sections = {"dependencies": [Requirement(r) for r in project["dependencies"]]}
    for extra, requirements in project["optional-dependencies"].items():
        sections[extra] = [Requirement(r) for r in requirements]
    return sections


def names_of(requirement: Requirement) -> set[str]:
    """The distributions a requirement pins: its own, and an extra shipped as one (psycopg[binary])."""
    name = canonicalize_name(requirement.name)
    return {name} | {f"{name}-{extra}" for extra in requirement.extras}


def test_each_section_pins_what_pyproject_asks_and_nothing_else() -> None:
    pinned = pinned_sections((REPO / "requirements.txt").read_text(encoding="utf-8"))
    project = project_sections()
    assert set(pinned) == set(project)
    for section, requirements in project.items():
        wanted = set().union(*(names_of(r) for r in requirements))
        assert set(pinned[section]) == wanted, section
        for requirement in requirements:
            version = pinned[section][canonicalize_name(requirement.name)]
            assert requirement.specifier.contains(version, prereleases=True), (section, requirement, version)


def test_plotting_and_test_tools_are_no_runtime_dependency() -> None:
    runtime = {canonicalize_name(r.name) for r in project_sections()["dependencies"]}
    assert not runtime & {"matplotlib", "pytest", "hypothesis", "selectolax", "resiliparse", "playwright"}


def test_a_misplaced_pin_is_found() -> None:
    text = "# [dependencies]\nscrapy==2.19.0\n# [test]\npytest==9.2.0  # why\nmatplotlib==3.11.2\n"
    assert pinned_sections(text) == {
        "dependencies": {"scrapy": "2.19.0"},
        "test": {"pytest": "9.2.0", "matplotlib": "3.11.2"},
    }
