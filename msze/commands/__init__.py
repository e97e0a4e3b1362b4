"""Project Scrapy commands (COMMANDS_MODULE): `crawl` with spider-argument checks before the crawl starts."""
