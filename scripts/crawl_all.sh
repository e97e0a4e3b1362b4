#!/usr/bin/env bash
# Crawl every parish of a URL list with GNU parallel; a thin wrapper over `python -m msze crawl-all`.
#   bash scripts/crawl_all.sh urls.txt --jobs 100 --out output/batch [--warc] [--sshlogin 8/user@host] [-s NAME=VALUE]
# Re-run the same command to resume: finished parishes are skipped, failed and interrupted ones re-crawled.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-$root/.venv/bin/python}"
exec env PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}" "$python" -m msze crawl-all "$@"
