"""From a page's HTML to its Mass times: text, site boilerplate, page filter, hours, rules, language.

Pure logic (no Scrapy imports): msze.extraction.page is the one sequence the item pipelines adapt and the
offline commands (extract, evaluate, process) call."""
