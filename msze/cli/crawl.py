"""`msze crawl SPIDER [scrapy crawl options]`: run one of msze's spiders from any folder.

The same as `scrapy crawl` inside the checkout (msze.commands.crawl, Scrapy's own command line) with
msze.settings as the project's settings, so an installed msze needs no scrapy.cfg. This process becomes
`python -m scrapy` (exec): Scrapy's machinery stays in the adapters, and Ctrl-C reaches the crawl itself.

    msze crawl parish -a url=https://parafia.example.pl/ -s PAGES_DIR=pages

The full log (with any traceback) goes to `--log` (default output/logs/<spider>.log); stderr gets one line
at the end: how many items were stored, or why nothing was (exit status 1).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import NoReturn


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spider", help="parish, parishes, deon or places")
    parser.add_argument("--log", help="log file (default output/logs/<spider>.log; '-' for stderr)")
    parser.add_argument(
        "scrapy_args", nargs=argparse.REMAINDER, metavar="...", help="`scrapy crawl` options: -a, -s, -o, -O"
    )


def scrapy_argv(args: argparse.Namespace) -> list[str]:
    """The `scrapy crawl` command line: the spider, its options, and LOG_FILE unless one was given."""
    argv = ["scrapy", "crawl", args.spider, *args.scrapy_args]
    given = any(arg.startswith("LOG_FILE=") or arg in ("--logfile", "--nolog") for arg in args.scrapy_args)
    if args.log != "-" and not given:
        log = Path(args.log or os.path.join("output", "logs", f"{args.spider}.log"))
        log.parent.mkdir(parents=True, exist_ok=True)
        argv += ["-s", f"LOG_FILE={log}", "-s", "LOG_FILE_APPEND=False"]
    return argv


def run(args: argparse.Namespace) -> NoReturn:
    """Become `python -m scrapy crawl …` (exec): the crawl's exit status is the command's."""
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": os.environ.get("SCRAPY_SETTINGS_MODULE", "msze.settings")}
    os.execve(sys.executable, [sys.executable, "-m", *scrapy_argv(args)], env)
