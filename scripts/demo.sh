#!/usr/bin/env bash
# The demo: set up .venv, serve the bundled demo parish site (demo/site) on 127.0.0.1 at a free port, crawl it
# with `scrapy crawl parish`, and print the Mass times found, page by page. Output: output/demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

out=output/demo
rm -rf "$out" && mkdir -p "$out"
.venv/bin/python scripts/demo_serve.py demo/site >"$out/server.txt" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$out/server.txt" ] && break; sleep 0.1; done
url=$(head -n1 "$out/server.txt")
echo "demo parish site: $url"

# Fast settings: the demo site is local, so no politeness delay; everything else as in production.
.venv/bin/scrapy crawl parish -a url="$url" \
  -s PAGES_DIR="$out/pages" -s STATS_FILE="$out/stats.json" \
  -s AUTOTHROTTLE_START_DELAY=0 -s LOG_FILE="$out/crawl.log" -s LOG_LEVEL=INFO
echo "crawl log: $out/crawl.log, stats: $out/stats.json"
echo
.venv/bin/python scripts/demo_summary.py "$out"/pages/*.jsonl
