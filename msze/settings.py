"""Settings for the msze Scrapy project.

Every setting has its default here with a one-line why; override any of them with `-s NAME=VALUE`.
Secrets (the Google Maps API key) come only from the environment.
"""

BOT_NAME = "msze"

SPIDER_MODULES = ["msze.spiders"]
NEWSPIDER_MODULE = "msze.spiders"

# --- Politeness and rate control -------------------------------------------------------------------
# Parish sites are small servers; robots.txt is obeyed unless a user decides otherwise.
ROBOTSTXT_OBEY = True
# AutoThrottle is the thesis's rate control: start at 5 s, never wait more than 300 s, aim for one request
# in flight per site on average (low, because ~100 parish crawls run at once).
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 5.0
AUTOTHROTTLE_MAX_DELAY = 300.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 1.0
DOWNLOAD_DELAY = 0  # AutoThrottle's minimum delay
# Many requests may be in flight for one site; AutoThrottle decides how fast they go out.
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 8
DOWNLOAD_TIMEOUT = 60  # a parish server that says nothing for a minute is down
DOWNLOAD_MAXSIZE = 16 * 1024 * 1024  # no parish page is bigger; bigger bodies are media
DOWNLOAD_WARNSIZE = 4 * 1024 * 1024

# --- Crawl shape -------------------------------------------------------------------------------------
DEPTH_LIMIT = 3  # the thesis crawled 3 links deep from the start page
DEPTH_STATS_VERBOSE = True

# --- Request fingerprinting and the reactor ----------------------------------------------------------
REQUEST_FINGERPRINTER_IMPLEMENTATION = "2.7"
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
FEED_EXPORT_ENCODING = "utf-8"

LOG_LEVEL = "INFO"

# --- Crawler (parish spider, middlewares, storage) ---------------------------------------------------

# --- Extraction pipelines ----------------------------------------------------------------------------

# --- Classifier --------------------------------------------------------------------------------------

# --- Directory and URL discovery (deon, places) -----------------------------------------------------
# `-o parishes.tsv:tsv` writes the thesis TSV layout (deon.fixed.tsv / extended.tsv), flushed per item.
FEED_EXPORTERS = {"tsv": "msze.exporters.TsvItemExporter"}
# First listing page of the deon.pl directory; tests and demos point it at scripts/fake_deon.py.
DEON_START_URL = "https://www.deon.pl/parafie-koscioly/"
DEON_MAX_PAGES = 0  # listing pages to follow (0 = all, ~1 013); small values take a sample
# Places flavour: "new" = Places API (New) searchText, website in the same paid call; "legacy" = the thesis's
# Text Search + Place Details (two calls per parish).
PLACES_API = "new"
PLACES_NEW_URL = "https://places.googleapis.com/v1/places:searchText"
PLACES_FIELD_MASK = "places.id,places.displayName,places.formattedAddress,places.websiteUri"
PLACES_LEGACY_TEXTSEARCH_URL = "https://maps.googleapis.com/maps/api/place/textsearch/json"
PLACES_LEGACY_DETAILS_URL = "https://maps.googleapis.com/maps/api/place/details/json"
PLACES_LANGUAGE = "pl"  # results in Polish, as the parish names are
PLACES_REGION = "pl"  # bias results to Poland

# --- Batch crawl, WARC, re-processing ----------------------------------------------------------------
