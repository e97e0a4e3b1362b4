"""The parish directory: the deon.pl listing and Google Places look-ups for parish websites.

Pure logic (no Scrapy imports): the deon and places spiders adapt it."""
