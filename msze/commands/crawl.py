"""`scrapy crawl` (and `msze crawl`) that checks spider arguments first and says when a crawl stored nothing.

- A bad `-a url=` is a usage error (exit status 2), not a traceback or an empty "finished" crawl. A spider
  opts in with classmethods ``check_arguments(**spargs)`` and ``check_settings(settings)`` returning an error
  message or None.
- A crawl that ran to its end without storing an item prints one line on stderr saying why (the reasons the
  batch records, msze.batch.plan.crawl_error) and exits with status 1; the tracebacks stay in the log.
  A resumed run with nothing left to do (`*/skipped_done`) or a spider that closed for its own reason (quota,
  invalid key: their own message and status) is not "nothing stored".
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.crawler import Crawler
from scrapy.exceptions import UsageError

from msze.batch.plan import NOTHING_STORED_EXIT, crawl_error


def nothing_stored(stats: Mapping[str, Any]) -> str | None:
    """Why a finished crawl stored nothing, or None when it stored items or had nothing new to store."""
    if stats.get("finish_reason") != "finished" or stats.get("item_scraped_count"):
        return None
    if any(key.endswith("/skipped_done") and value for key, value in stats.items()):
        return None
    return crawl_error(dict(stats), 0, 0)


class Command(ScrapyCrawlCommand):
    _crawler: Crawler | None = None

    def _create_crawler(self, spname: str) -> Crawler:
        self._crawler = super()._create_crawler(spname)
        return self._crawler

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) == 1 and self.crawler_process is not None:
            self._check_arguments(args[0], opts)
        super().run(args, opts)
        if self._crawler is not None and self.exitcode == 0:
            self._outcome(args[0], self._crawler.stats.get_stats())

    def _outcome(self, name: str, stats: Mapping[str, Any]) -> None:
        """One line on stderr: why nothing was stored (exit status 1), or, when the log goes to a file that
        the user does not see, how many items were."""
        log = self.settings.get("LOG_FILE") if self.settings is not None else None
        where = f"; details in {log}" if log else ""
        why = nothing_stored(stats)
        if why:
            print(f"crawl {name}: nothing stored ({why}){where}", file=sys.stderr)
            self.exitcode = NOTHING_STORED_EXIT
        elif log:
            items = stats.get("item_scraped_count", 0)
            reason = stats.get("finish_reason")
            print(f"crawl {name}: {items} items stored ({reason}){where}", file=sys.stderr)

    def _check_arguments(self, name: str, opts: argparse.Namespace) -> None:
        assert self.crawler_process is not None
        try:
            spidercls = self.crawler_process.spider_loader.load(name)
        except KeyError:
            spidercls = None
        check = getattr(spidercls, "check_arguments", None)
        error = check(**opts.spargs) if check else None
        check_settings = getattr(spidercls, "check_settings", None)
        if not error and check_settings and self.settings is not None:
            error = check_settings(self.settings)
        if error:
            raise UsageError(error, print_help=False)
