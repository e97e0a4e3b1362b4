"""The docs tell the truth about the code: every setting documented with its default, nothing documented that
does not exist, every file and module they name present, a README short enough to read.

`.venv/bin/python tests/unit/test_docs.py` prints the msze/settings.py table rows generated from the module
(name, default, the comment above the assignment) for docs/settings.md; the "why" column is then edited by
hand to one line, and these tests keep the names and defaults in step with the code.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from typing import Any

import pytest
import scrapy.settings.default_settings as scrapy_defaults

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
SETTINGS_DOC = DOCS / "settings.md"
SETTINGS_MODULE = REPO / "msze" / "settings.py"
README_MAX_BYTES = 10 * 1024

# Environment variables read outside the settings modules' mappings (each must still occur in the source).
EXTRA_ENVIRONMENT = {
    "ANNOTATOR_SECRET_KEY": "msze/annotator",
    "MSZE_SEARCH_SECRET_KEY": "msze/search",
    "MSZE_SEARCH_ADMIN_TOKEN": "msze/search",
    "MSZE_SEARCH_BASE_URL": "msze/search",
    "MSZE_SEARCH_DATABASE_URL": "msze/search/wsgi.py",
    "GOOGLE_MAPS_API_KEY": "msze/spiders/places.py",
    "MSZE_SHARED_DATA": "msze/testing",
    "SCRAPY_SETTINGS_MODULE": "msze/cli",
}
# Upper-case words in the docs that are no settings: API status values, OS constants. Each must occur in the
# file named, so a word that left the code cannot stay in the docs either.
NOT_SETTINGS = {
    "MAX_ROWS_PER_PARISH": "msze/search/loader/results.py",
    "MOMENT_YEARS": "msze/search/params.py",
    "NOT_FOUND": "msze/directory",
    "ZERO_RESULTS": "msze/directory",
    "OVER_QUERY_LIMIT": "msze/directory",
    "REQUEST_DENIED": "msze/directory",
    "RESOURCE_EXHAUSTED": "msze/directory",
    "PERMISSION_DENIED": "msze/directory",
    "PR_SET_PDEATHSIG": "msze/batch",
    "O_APPEND": "msze/batch/results.py",
}
# Words that name how the project was made, not what it is.
FORBIDDEN = re.compile(r"\bissue \d|\bseed 0\d\d|\bTEAM\.md\b|\bengineers?\b|\bhelpers?\b", re.IGNORECASE)

SETTING_WORD = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
TABLE_ROW = re.compile(r"^\|\s*`([A-Z][A-Z0-9_]+)`\s*\|([^|]*)\|")
REPO_PATH = re.compile(r"^(?:msze|tests|scripts|benchmarks|docs|demo)/[\w./*<>{},-]*$")
FILE_SUFFIX = re.compile(r"\.(py|md|txt|sh|json|ftz|tsv|jsonl|html|yaml|cfg|toml)$")
# A command line in a code span: its upper-case words are metavariables (`gold HOUR_ID`) except NAME=VALUE.
COMMAND = re.compile(
    r"^(?:\.venv/bin/\S+|msze|scrapy|python\S*|bash|parallel|warcio|[A-Z_]+=\S*|-\S+)(?:\s|$)"
)
DOTTED = re.compile(r"^msze(?:\.[A-Za-z_]\w*)+$")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def doc_files() -> list[Path]:
    return [REPO / "README.md", *sorted(DOCS.rglob("*.md")), REPO / "msze" / "models" / "README.md"]


def prose(path: Path) -> str:
    """The file without its fenced code blocks (commands are checked by running them, not here)."""
    return re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)


def code_spans(path: Path) -> list[str]:
    return [span.strip() for span in CODE_SPAN.findall(prose(path))]


# --- msze/settings.py, read as source: names, defaults and the comments that say why -----------------------


def module_settings() -> dict[str, Any]:
    """NAME -> value of every upper-case assignment in msze/settings.py, evaluated as the module does."""
    namespace: dict[str, Any] = {}
    exec(compile(SETTINGS_MODULE.read_text(encoding="utf-8"), str(SETTINGS_MODULE), "exec"), namespace)
    return {name: value for name, value in namespace.items() if SETTING_WORD.match(name) or name.isupper()}


def module_comments() -> dict[str, str]:
    """NAME -> the comment lines right above its assignment (or on the same line), joined."""
    lines = SETTINGS_MODULE.read_text(encoding="utf-8").splitlines()
    comments: dict[str, str] = {}
    for node in ast.parse("\n".join(lines)).body:
        if not isinstance(node, ast.Assign) or not isinstance(node.targets[0], ast.Name):
            continue
        above: list[str] = []
        n = node.lineno - 2
        while n >= 0 and lines[n].lstrip().startswith("#") and not lines[n].lstrip().startswith("# ---"):
            above.insert(0, lines[n].lstrip("# ").strip())
            n -= 1
        inline = lines[node.lineno - 1].partition("  # ")[2].strip()
        comments[node.targets[0].id] = " ".join([*above, inline]).strip()
    return comments


def literal(value: Any) -> str:
    """How a default is written in the docs' tables (and read back with ast.literal_eval)."""
    if isinstance(value, str):
        return '`""`' if value == "" else f"`{value!r}`".replace("'", '"')
    if isinstance(value, bool | int | float) or value is None:
        return f"`{value!r}`"
    return "see below"


def generated_rows() -> list[str]:
    comments = module_comments()
    return [
        f"| `{name}` | {literal(value)} | {comments.get(name, '')} |"
        for name, value in module_settings().items()
    ]


# --- the documented tables ----------------------------------------------------------------------------------


def documented(section: str) -> dict[str, str]:
    """NAME -> default cell of the table rows under the docs/settings.md heading starting with `section`."""
    rows: dict[str, str] = {}
    inside = False
    for line in SETTINGS_DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            inside = line[3:].startswith(section)
        match = TABLE_ROW.match(line) if inside else None
        if match:
            assert match.group(1) not in rows, f"{match.group(1)} documented twice in {section}"
            rows[match.group(1)] = match.group(2).strip()
    return rows


def annotator_settings() -> dict[str, Any]:
    from msze.annotator.settings import DEFAULTS

    return dict(DEFAULTS)


def search_settings() -> dict[str, Any]:
    from msze.search import app

    return {f"MSZE_SEARCH_{key}": value for key, value in app.DEFAULTS.items()} | {
        "MSZE_SEARCH_BASE_URL": app.BASE_URL
    }


def check_table(section: str, expected: dict[str, Any], env_only: set[str]) -> list[str]:
    """What is wrong with one table: settings missing, settings that do not exist, defaults that differ."""
    rows = documented(section)
    problems = [f"missing from docs/settings.md ({section}): {name}" for name in expected if name not in rows]
    problems += [
        f"docs/settings.md ({section}) names {name}, which does not exist"
        for name in rows
        if name not in expected and name not in env_only
    ]
    for name, cell in rows.items():
        if name not in expected or not isinstance(expected[name], str | int | float | bool | type(None)):
            continue
        spans = CODE_SPAN.findall(cell)
        try:
            value = ast.literal_eval(spans[0]) if spans else "<no `default`>"
        except (ValueError, SyntaxError):
            value = f"<unreadable `{spans[0]}`>"
        if value != expected[name] or isinstance(value, bool) != isinstance(expected[name], bool):
            problems.append(f"{name}: docs say {cell!r}, the code has {literal(expected[name])}")
    return problems


def test_every_crawl_setting_documented_with_its_default() -> None:
    problems = check_table("Crawl settings", module_settings(), set())
    rows = dict(zip(module_settings(), generated_rows(), strict=True))
    hints = [rows[p.rpartition(": ")[2]] for p in problems if p.startswith("missing")]
    assert not problems, "\n".join(problems + ["generated rows to add:", *hints])


def test_component_settings_list_every_component() -> None:
    spans = set(code_spans(SETTINGS_DOC))
    missing = [
        f"{name}: {entry}"
        for name, value in module_settings().items()
        if isinstance(value, dict | list)
        for entry in value
        if entry not in spans
    ]
    assert not missing, "components not named in docs/settings.md:\n" + "\n".join(missing)


def test_annotator_settings_documented() -> None:
    problems = check_table("Annotator", annotator_settings(), {"ANNOTATOR_SECRET_KEY"})
    assert not problems, "\n".join(problems)


def test_search_settings_documented() -> None:
    env_only = {name for name in EXTRA_ENVIRONMENT if name.startswith("MSZE_SEARCH_")}  # secret, token, DB
    problems = check_table("Search", search_settings(), env_only)
    assert not problems, "\n".join(problems)


def setting_words(span: str) -> list[str]:
    """The upper-case words of a code span that must be settings (in a command: the NAME of NAME=VALUE)."""
    if COMMAND.match(span):
        return re.findall(r"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=", span)
    # A word after a dot is a module's constant (scrapy.linkextractors.IGNORED_EXTENSIONS), not a setting.
    return re.findall(r"(?<![.\w])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w.])", span)


def test_docs_name_no_setting_that_does_not_exist() -> None:
    from msze.search.app import DEFAULTS as SEARCH_APP_KEYS

    known = (
        set(module_settings())
        | {name for name in dir(scrapy_defaults) if name.isupper()}
        | set(annotator_settings())
        | set(search_settings())
        | set(SEARCH_APP_KEYS)
        | set(EXTRA_ENVIRONMENT)
        | set(NOT_SETTINGS)
    )
    unknown = [
        f"{path.relative_to(REPO)}: {word}"
        for path in doc_files()
        for span in code_spans(path)
        for word in setting_words(span)
        if word not in known
    ]
    assert not unknown, "docs name settings that do not exist:\n" + "\n".join(unknown)


@pytest.mark.parametrize("table", [EXTRA_ENVIRONMENT, NOT_SETTINGS], ids=["environment", "not-settings"])
def test_listed_words_still_occur_in_the_code(table: dict[str, str]) -> None:
    def occurs(word: str, where: Path) -> bool:
        files = [where] if where.is_file() else sorted(where.rglob("*.py"))
        return any(word in f.read_text(encoding="utf-8") for f in files)

    gone = [word for word, where in table.items() if not occurs(word, REPO / where)]
    assert not gone, f"no longer in the code (drop them from the docs and this list): {gone}"


# --- files, modules, links, wording -------------------------------------------------------------------------


def test_files_named_in_the_docs_exist() -> None:
    missing = []
    for path in doc_files():
        for span in code_spans(path):
            for token in span.split():
                token = token.strip(".,;:()")
                if not REPO_PATH.match(token) or not (FILE_SUFFIX.search(token) or token.endswith("/")):
                    continue
                if "<" in token or "{" in token:
                    continue  # a pattern (<name>.jsonl), not a file
                if not list(REPO.glob(token.rstrip("/"))):
                    missing.append(f"{path.relative_to(REPO)}: {token}")
        for target in LINK.findall(CODE_SPAN.sub("", prose(path))):
            if "://" not in target and not (path.parent / target).exists():
                missing.append(f"{path.relative_to(REPO)}: link {target}")
    assert not missing, "docs name files that do not exist:\n" + "\n".join(missing)


def test_modules_and_names_in_the_docs_exist() -> None:
    missing = []
    for path in doc_files():
        for span in code_spans(path):
            dotted = re.sub(r"\(.*$", "", span)  # `msze.x.f(args)` names msze.x.f
            if DOTTED.match(dotted) and not resolves(dotted):
                missing.append(f"{path.relative_to(REPO)}: {dotted}")
    assert not missing, "docs name modules or objects that do not exist:\n" + "\n".join(missing)


def resolves(dotted: str) -> bool:
    """True when `dotted` is a module or an attribute path below one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attribute in parts[cut:]:
                obj = getattr(obj, attribute)
        except AttributeError:
            return False
        return True
    return False


def test_docs_speak_of_the_project_only() -> None:
    found = [
        f"{path.relative_to(REPO)}:{n}: {line.strip()}"
        for path in doc_files()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if FORBIDDEN.search(line)
    ]
    assert not found, "\n".join(found)


def test_readme_is_short_and_starts_with_the_two_commands() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) <= README_MAX_BYTES, "README over 10 KB: move the topic to docs/"
    first_block = readme.split("```")[1]
    assert "bash scripts/demo.sh" in first_block and "bash scripts/test.sh" in first_block


if __name__ == "__main__":
    print("| setting | default | why |\n| --- | --- | --- |")
    print("\n".join(generated_rows()))
