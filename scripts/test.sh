#!/usr/bin/env bash
# The test command: set up (idempotent), lint, then the whole offline test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/python -m pytest "$@"
