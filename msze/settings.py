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
# Scrapy hands each response's output (an item, its links) to this many asyncio tasks, created for every
# response however few outputs it has; the pipelines are synchronous, so 100 (Scrapy's default) only costs
# task switches: 8 takes a quarter off a crawl's CPU per page (docs/benchmarks.md) with the same items.
CONCURRENT_ITEMS = 8
# The whole download, headers to last byte: a parish page (under 1 MB) comes in seconds even from a slow host,
# and a server dripping bytes costs at most this x BACKOFF_REPEAT_LIMIT a page (PARISH_MAX_SECONDS a site).
DOWNLOAD_TIMEOUT = 30
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

# --- Components: every middleware, pipeline, extension and handler, in order ---------------------------
DOWNLOADER_MIDDLEWARES = {
    # Credentials out of request URLs (start URLs, redirects) before robots.txt (100) asks for their host.
    "msze.middlewares.UserinfoMiddleware": 90,
    # Drops what is still queued or retried after a site's time cap (the spider side is below), after robots.
    "msze.middlewares.CrawlBudgetMiddleware": 110,
    # A random real browser User-Agent per request (parish hosts block unknown bots more often).
    "scrapy.downloadermiddlewares.useragent.UserAgentMiddleware": None,
    "msze.middlewares.BrowserUserAgentMiddleware": 400,  # fake-useragent's browsers, by usage share
    # Exponential backoff instead of Scrapy's immediate fixed retries (BACKOFF_ENABLED = False restores them).
    "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
    "msze.middlewares.ExponentialBackoffMiddleware": 550,
    # A TLS-1.0-only host is retried once with legacy TLS, before the backoff retries it in vain.
    "msze.middlewares.LegacyTLSRetryMiddleware": 560,
    # Decide the charset of undeclared pages after decompression (590) so Polish letters decode right.
    "msze.middlewares.CharsetFallbackMiddleware": 570,
    # Drop binary bodies under text content types, after decompression (590), before the charset guess.
    "msze.middlewares.BinarySniffMiddleware": 580,
    # Re-crawl: validators of the previous run sent; a 304 becomes the stored page (after sniff, before gzip).
    "msze.middlewares.ConditionalRequestMiddleware": 585,
    # Sees 3xx answers before RedirectMiddleware (600): loops and over-long chains get one clear log line.
    "msze.middlewares.RedirectLoopMiddleware": 610,
}
SPIDER_MIDDLEWARES = {
    # Counts a site's new requests after DepthMiddleware (900) and drops those over PARISH_MAX_PAGES before
    # they are queued (one instance with the downloader side above).
    "msze.middlewares.CrawlBudgetMiddleware": 100,
    # Items of 304 pages get their stored hours, so the extraction pipelines skip them.
    "msze.middlewares.RecrawlSpiderMiddleware": 950,
}
# html → text → language → site template → page filter → hours (with the rules) → classifier → re-crawl →
# storage: each extraction pipeline is one step of msze.extraction.page.PageSteps.
ITEM_PIPELINES = {
    "msze.pipelines.TextConversionPipeline": 100,
    "msze.pipelines.LanguagePipeline": 150,
    "msze.pipelines.SiteTemplatePipeline": 200,
    "msze.pipelines.PageFilterPipeline": 300,
    "msze.pipelines.HoursPipeline": 400,
    "msze.pipelines.ClassifierPipeline": 600,
    "msze.pipelines.RecrawlPipeline": 850,
    "msze.pipelines.ParishJsonlWriterPipeline": 900,  # last: it stores what the others added
}
EXTENSIONS = {
    "msze.extensions.MemoryTrimExtension": 100,
    "msze.extensions.StatsFileExtension": 500,
    "msze.extensions.WarcExtension": 600,
}
# http and https through Scrapy's HTTP/1.1 handler, with legacy TLS for the hosts LegacyTLSRetryMiddleware
# marked; only requests with meta["playwright"] (JavaScript shells, below) go through the browser.
DOWNLOAD_HANDLERS = {
    "http": "msze.downloadhandlers.BrowserDownloadHandler",
    "https": "msze.downloadhandlers.BrowserDownloadHandler",
}
# `-o parishes.tsv:tsv` writes the thesis TSV layout (deon.fixed.tsv / extended.tsv), flushed per item.
FEED_EXPORTERS = {"tsv": "msze.exporters.TsvItemExporter"}
# `scrapy crawl` checks spider arguments (-a url=...) before starting: a bad one exits with status 2.
COMMANDS_MODULE = "msze.commands"

# --- Crawler (parish spider, middlewares, storage) ---------------------------------------------------
# Domains never followed (nor their subdomains); "" = the packaged msze/data/domain-blacklist.txt (thesis).
DOMAIN_BLACKLIST_FILE = ""
# At most this many query-string variants of one path shape (?id=1, ?id=2 ...) per site: calendar traps.
LINKS_MAX_QUERIES_PER_PATH = 50
# Where ParishJsonlWriterPipeline writes <parish>.jsonl (one page a line); empty turns the writer off.
PAGES_DIR = "output/pages"
PAGES_MAX_OPEN_FILES = 256  # one-process crawls of many sites stay under the open-files limit
# When set, StatsFileExtension writes the final crawl stats there as JSON (tests, batch jobs).
STATS_FILE = ""
# A long crawl's freed memory goes back to the system (msze/utils/memory.py): the heap is trimmed every
# MEMORY_TRIM_INTERVAL seconds (0 = never; a trim takes milliseconds), and threads share MALLOC_ARENA_MAX
# malloc arenas (glibc's default is 8 a core, each keeping its own freed pages).
MEMORY_TRIM_INTERVAL = 30.0
MALLOC_ARENA_MAX = 2
# Old parish hosting speaks only TLS 1.0: after such a handshake failure the host is retried once with
# legacy TLS (msze/crawling/tls.py).
LEGACY_TLS_RETRY = True
BINARY_SNIFF_ENABLED = True  # the thesis's check of the first 1024 bytes; stops video downloads early
# Retry after 2^t s (t = failures in a row), at most BACKOFF_MAX_WAIT s, giving up after BACKOFF_REPEAT_LIMIT
# failures in a row. Small for parish sites (a dead parish server should not hold a crawl slot for minutes);
# the deon/places spiders raise them in their custom_settings.
BACKOFF_ENABLED = True
BACKOFF_MAX_WAIT = 8.0
BACKOFF_REPEAT_LIMIT = 3
# fake-useragent 2.x ships its browser list (offline), filtered once per process and drawn by usage share
# (msze.middlewares.BrowserUserAgentMiddleware); USER_AGENT if it ever fails to load.
# The fallback User-Agent: a browser's, as parish hosts block bots more often than browsers.
USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36"
)
# Per parish site (request.meta["msze_site"], so per site in the `parishes` spider too); 0 = no cap. Requests
# beyond a cap are dropped, counted (msze/budget/...) and logged once per site.
# A parish site has its Mass times within tens to hundreds of pages; past 1 000 it is a news archive, a
# gallery or a trap (300 new links a page).
PARISH_MAX_PAGES = 1000
# A parish crawl takes seconds to minutes (20 s median in the batch run): 30 min stops only traps and dripping
# servers, and keeps a batch of 10 000 parishes bounded.
PARISH_MAX_SECONDS = 1800

# PDFs of the parish's own site (announcements, a schedule), read by pdfminer.six (msze/extraction/pdf.py) and
# run through the same page steps; False: .pdf links are not followed, PDF bodies are dropped as binary.
PDF_ENABLED = True
# PDFs downloaded per parish site at most (0 = no cap): a site's few announcements and its schedule, not its
# archive of 300 bulletins; links that name Masses or announcements are downloaded first.
PDF_MAX_PER_SITE = 10
# A PDF bigger than this is not downloaded (Scrapy's per-request download_maxsize): announcements are under
# 1 MB, a 40 MB file is a scanned book or a poster.
PDF_MAX_BYTES = 10 * 1024 * 1024
# Pages read from one PDF at most (0 = all): bounds the time pdfminer spends on one file.
PDF_MAX_PAGES = 50
# Images that may be the schedule (named, captioned or headed as one; docs/crawling.md#images), and PDFs with
# no text layer, read by Tesseract OCR: only for a site whose pages gave no Sunday Mass, as OCR is slow.
OCR_ENABLED = True
# Images OCR'd per parish site at most: the schedule and an announcement or two, not a gallery.
OCR_MAX_PER_SITE = 5
# Images of one page judged as schedule candidates at most (0 = all), those named or captioned as the
# schedule first: judging one searches the page for its heading, and a gallery page has hundreds.
OCR_MAX_IMAGES_PER_PAGE = 50
# Images (and scanned PDFs) OCR'd at once, each by a one-thread Tesseract child of ~40 MB; 0 = one a core:
# more only share the cores and add memory.
OCR_CONCURRENCY = 0

# Pages built by JavaScript (msze/extraction/jsshell.py): a page that is a script's shell is fetched again in
# a browser, at most this many per parish site (0 = never): a few builder pages hold a site's schedule, and
# each rendering costs a browser page (~100 MB, seconds).
JS_RENDER_MAX_PER_SITE = 5
# Seconds a rendering may take (page load and its scripts); a shell that takes longer is kept as it came.
JS_RENDER_TIMEOUT = 20
# The browser: Debian's chromium (scripts/setup.sh installs it; Playwright's own builds are never downloaded).
# Without the background-networking flags chromium keeps trying to reach Google's hosts.
PLAYWRIGHT_BROWSER_TYPE = "chromium"
PLAYWRIGHT_LAUNCH_OPTIONS = {
    "executable_path": "/usr/bin/chromium",
    "headless": True,
    "args": [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
    ],
}
# One browser page at a time per crawl: ~100 parish crawls may run at once, each with its own browser.
PLAYWRIGHT_MAX_PAGES_PER_CONTEXT = 1

# --- Extraction (msze/extraction) ---------------------------------------------------------------------
# Text beyond this many characters is not scanned (no parish page has 5 MB of text; bounds time per page).
EXTRACTION_MAX_TEXT_CHARS = 5_000_000
# HTML beyond this many characters is not converted to text (the page is stored whole): html2text takes ~17 s
# on 14 M characters, and parish pages are well under 1 MB.
EXTRACTION_MAX_HTML_CHARS = 4_000_000
# Hour candidates beyond this many on one page are skipped (a timetable dump, not a parish page; bounds time
# and memory: each costs ~4 kB while its page is processed, 20 000 took one 15 MB page's crawl over 400 MB).
EXTRACTION_MAX_HOURS = 5_000
# Blocks a site repeats are processed once per site; False: every page is processed on its own.
TEMPLATE_ENABLED = True
# A block on this many pages and this share of the site's pages so far is its template (menu, footer).
TEMPLATE_MIN_PAGES = 3
TEMPLATE_MIN_SHARE = 0.5
# Site models kept at once (least recently used dropped): bounds memory in one-process multi-site crawls.
TEMPLATE_MAX_SITES = 200
# Distinct lines remembered per site (~100 bytes each); a bigger site stops learning new blocks, nothing else.
TEMPLATE_MAX_BLOCKS = 20_000
# True: pages the thesis filter rejects get no hours (the thesis's annotation set-up); False: all pages.
EXTRACT_ONLY_HINTED = False
# Each page's language (py3langid) on item["language"], right after html2text; `process --lang` selects by it.
# Off by default: the model takes ~90 MB per process, i.e. ~9 GB for 100 parallel parish crawls; the
# one-process `parishes` spider turns it on (one copy), and `msze process` always records it.
LANGUAGE_ENABLED = False

# --- Classifier (msze/classifier) ---------------------------------------------------------------------
# The fastText hour classifier scores the hours the rules did not confirm (ClassifierPipeline, after them).
CLASSIFIER_ENABLED = True
# What it does with them (msze.extraction.page.CLASSIFIER_ROLES): "score" records P(Mass start) and leaves
# the label to the rules; "uncued" also labels the hours the rules found no cue for; "all" labels them all.
CLASSIFIER_ROLE = "uncued"
# Model file (.ftz/.bin + its .json sidecar); "" = the packaged default msze/models/hours.ftz.
CLASSIFIER_MODEL = ""
# P(mass) at or above which an hour is a Mass; None = the threshold stored with the model (chosen by CV).
CLASSIFIER_THRESHOLD = None

# --- Directory and URL discovery (deon, places) -----------------------------------------------------
# First listing page of the deon.pl directory; tests and demos point it at scripts/fake_deon.py.
DEON_START_URL = "https://www.deon.pl/parafie-koscioly/"
DEON_MAX_PAGES = 0  # listing pages to follow (0 = all, ~1 013); small values take a sample
# Places flavour: "new" = Places API (New) searchText, website in the same paid call; "legacy" = the thesis's
# Text Search + Place Details (two calls per parish).
PLACES_API = "new"
PLACES_NEW_URL = "https://places.googleapis.com/v1/places:searchText"
PLACES_FIELD_MASK = "places.id,places.displayName,places.formattedAddress,places.websiteUri,places.location"
PLACES_LEGACY_TEXTSEARCH_URL = "https://maps.googleapis.com/maps/api/place/textsearch/json"
PLACES_LEGACY_DETAILS_URL = "https://maps.googleapis.com/maps/api/place/details/json"
PLACES_LANGUAGE = "pl"  # results in Polish, as the parish names are
PLACES_REGION = "pl"  # bias results to Poland
# `-a churches=`: church lookups per parish at most (0 = no cap). A parish has a few filial churches and
# chapels; a site listing hundreds is a directory or a misreading, and each lookup is a paid call or two.
PLACES_MAX_CHURCHES_PER_PARISH = 20

# --- Batch crawl, WARC, re-crawl ---------------------------------------------------------------------
# Raw responses as WARC next to the JSONL, so a crawl can be re-mined by any WARC tool later.
WARC_ENABLED = False  # `msze crawl-all --warc` turns it on per parish crawl
WARC_DIR = "output/warc"  # <WARC_DIR>/<parish>.warc.gz
WARC_FILE = ""  # an explicit file name instead (the batch driver sets it); "" = <WARC_DIR>/<parish>.warc.gz
# Re-crawl (msze/recrawl): the previous run's SQLite state; "" = off (a first run needs nothing).
# With a path, pages are fetched with If-None-Match / If-Modified-Since, a 304 re-uses the stored page, and
# each page and parish gets a change record (unchanged / changed / shrunk = text under half, not trusted).
RECRAWL_STATE = ""
RECRAWL_CONDITIONAL = True  # False: still record changes, but always download in full
# One-process mode (`scrapy crawl parishes -a urls=FILE`): per-site limits, as DEPTH_LIMIT is per crawl.
PARISHES_DEPTH = 3  # links followed from each start page (thesis depth); `URL DEPTH` lines override it
PARISHES_MAX_PAGES_PER_SITE = 0  # pages requested per site at most (0 = no cap): a huge site can't hog a run
