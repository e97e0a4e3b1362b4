#!/usr/bin/env bash
# Sets up a fresh machine for msze: system packages when run as root (GNU parallel for crawl-all; Debian's
# chromium for the browser tests; wget, nginx with its brotli module and PostgreSQL for the real-server test tiers),
# then a virtualenv in .venv with the pinned requirements. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v parallel >/dev/null 2>&1 || need_apt+=(parallel)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v wget >/dev/null 2>&1 || need_apt+=(wget)  # the tests read a WARC that GNU wget writes
[ -x /usr/sbin/nginx ] || need_apt+=(nginx)
ls /usr/lib/nginx/modules/ngx_http_brotli_filter_module.so >/dev/null 2>&1 || need_apt+=(libnginx-mod-http-brotli-filter)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need_apt+=(postgresql)
if ((${#need_apt[@]})); then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${need_apt[*]} with apt-get" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  else
    echo "setup: please install ${need_apt[*]} (Debian: apt-get install ${need_apt[*]})" >&2
  fi
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
if ! cmp -s requirements.txt .venv/.requirements.installed 2>/dev/null; then
  .venv/bin/pip install -q --upgrade pip
  .venv/bin/pip install -q -r requirements.txt
  cp requirements.txt .venv/.requirements.installed
fi
# msze itself, editable: .venv/bin/msze (`msze crawl` runs the spiders from any folder).
if [ ! -x .venv/bin/msze ]; then
  if ! .venv/bin/pip install -q --no-deps --no-build-isolation -e . >.venv/msze-install.log 2>&1; then
    cat .venv/msze-install.log >&2
    exit 1
  fi
fi
