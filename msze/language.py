"""LanguagePipeline: records each crawled page's language (msze/lang.py) on the item, after text conversion.

So a stored crawl can later be processed by language (`python -m msze process --lang pl`) without detecting it
again, and the crawl stats show how much of a parish site is not Polish. LANGUAGE_ENABLED is off by default
(the model costs ~90 MB in every process) and on in the one-process `parishes` spider.
"""

from __future__ import annotations

from typing import Any

from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured

from msze.lang import detect_language


class LanguagePipeline:
    """item["language"] from item["text"] (py3langid); stats msze/language/<code>."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Any) -> LanguagePipeline:
        if not crawler.settings.getbool("LANGUAGE_ENABLED", False):
            raise NotConfigured("LANGUAGE_ENABLED is off")
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        if "language" not in adapter.field_names() and not isinstance(item, dict):
            return item
        if adapter.get("language") is None:  # a 304 page re-used from the previous run keeps its code
            adapter["language"] = detect_language(adapter.get("text"))
        self.stats.inc_value(f"msze/language/{adapter['language']}")
        return item
