"""`python -m msze COMMAND ...`: offline tools around the crawl (extract, evaluate, train, process, ...)."""

from __future__ import annotations

import argparse
import importlib
import sys

# command name -> (module, one-line help). Modules are imported lazily so that
# `python -m msze extract` does not pay for Flask or fastText training code.
COMMANDS: dict[str, tuple[str, str]] = {
    "extract": ("msze.commands.extract", "extract Mass times from HTML/text files"),
    "evaluate": ("msze.commands.evaluate", "score extraction against labelled pages"),
    "dataset": ("msze.commands.dataset", "build the classifier's train/dev/test sets"),
    "train": ("msze.commands.train", "train the fastText hour classifier"),
    "urls": ("msze.commands.urls", "turn places output into the parish URL list"),
    "crawl-all": ("msze.commands.crawl_all", "crawl many parishes (GNU parallel or one process)"),
    "process": ("msze.commands.process", "re-run extraction over stored JSONL/WARC crawls"),
    "annotator": ("msze.annotator.cli", "the labelling web app: serve, import, export, stats"),
    "search": ("msze.search.cli", "the Mass-times search web app and its results database"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m msze", description=__doc__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, add_help=False)
        sub_parser.set_defaults(_module=module_name)
    # Parse the command name first, then let its module define the rest.
    args, rest = parser.parse_known_args(argv)
    module = importlib.import_module(args._module)
    command_parser = argparse.ArgumentParser(prog=f"python -m msze {args.command}")
    module.add_arguments(command_parser)
    return int(module.run(command_parser.parse_args(rest)) or 0)


if __name__ == "__main__":
    sys.exit(main())
