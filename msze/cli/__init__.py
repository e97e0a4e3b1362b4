"""The `msze` command (also `python -m msze`): offline tools around the crawl (extract, evaluate, train,
process, crawl-all, annotator, search, ...). Each subcommand module has `add_arguments(parser)` and
`run(args) -> int`; modules are imported only when their command runs."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# command name -> (module, one-line help). Modules are imported lazily so that
# `python -m msze extract` does not pay for Flask or fastText training code.
COMMANDS: dict[str, tuple[str, str]] = {
    "extract": ("msze.cli.extract", "extract Mass times from HTML/text files"),
    "evaluate": ("msze.cli.evaluate", "score extraction against labelled pages"),
    "dataset": ("msze.cli.dataset", "build the classifier's train/dev/test sets"),
    "train": ("msze.cli.train", "train the fastText hour classifier"),
    "crawl": ("msze.cli.crawl", "run a spider (parish, parishes, deon, places) from any folder"),
    "urls": ("msze.cli.urls", "turn places output into the parish URL list"),
    "crawl-all": ("msze.cli.crawl_all", "crawl many parishes (GNU parallel or one process)"),
    "process": ("msze.cli.process", "re-run extraction over stored JSONL/WARC crawls"),
    "annotator": ("msze.annotator.cli", "the labelling web app: serve, import, export, stats"),
    "search": ("msze.search.cli", "the Mass-times search web app and its results database"),
}


def version() -> str:
    """The installed distribution's version (pyproject.toml), as pip knows it."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("msze")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def main(argv: list[str] | None = None) -> int:
    # The crawls it starts (`scrapy crawl` subprocesses) find the settings from any folder, also when
    # msze is installed rather than run from its checkout (scrapy.cfg).
    os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "msze.settings")
    parser = argparse.ArgumentParser(prog="msze", description=__doc__)
    parser.add_argument("--version", action="version", version=f"msze {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, add_help=False)
        sub_parser.set_defaults(_module=module_name)
    # Parse the command name first, then let its module define the rest.
    args, rest = parser.parse_known_args(argv)
    module = importlib.import_module(args._module)
    command_parser = argparse.ArgumentParser(prog=f"msze {args.command}")
    module.add_arguments(command_parser)
    try:
        return int(module.run(command_parser.parse_args(rest)) or 0)
    except BrokenPipeError:  # the reader went away (`msze annotator stats --json | head -3`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 1
