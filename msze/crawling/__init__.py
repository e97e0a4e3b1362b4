"""Crawling a parish site: which links to follow, binary sniffing, charsets, backoff timing, legacy TLS.

Pure logic (no Scrapy imports): the spiders, middlewares and download handlers adapt it."""
