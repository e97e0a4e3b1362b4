"""`scrapy crawl` that checks spider arguments first: a bad `-a url=` is a usage error (exit status 2), not a
traceback or an empty "finished" crawl.

A spider opts in with classmethods ``check_arguments(**spargs) -> str | None`` and
``check_settings(settings) -> str | None`` returning an error message.
"""

from __future__ import annotations

import argparse

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError


class Command(ScrapyCrawlCommand):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) == 1 and self.crawler_process is not None:
            try:
                spidercls = self.crawler_process.spider_loader.load(args[0])
            except KeyError:
                spidercls = None
            check = getattr(spidercls, "check_arguments", None)
            error = check(**opts.spargs) if check else None
            check_settings = getattr(spidercls, "check_settings", None)
            if not error and check_settings and self.settings is not None:
                error = check_settings(self.settings)
            if error:
                raise UsageError(error, print_help=False)
        super().run(args, opts)
