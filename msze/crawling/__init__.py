"""Crawling a parish site: which links to follow, binary sniffing, charsets, backoff timing, legacy TLS.

Logic without a crawler (no spiders, requests or settings): the spiders, middlewares and download handlers
adapt it. It reuses what Scrapy, w3lib and Twisted already have: links.py takes Scrapy's IGNORED_EXTENSIONS
and url_is_from_any_domain and w3lib's safe_url_string, tls.py Twisted's TLS interfaces."""
