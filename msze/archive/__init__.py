"""Stored crawls: JSONL pages, WARC files, and re-processing them without a re-crawl."""
