#!/usr/bin/env bash
# Sets everything up (a virtual environment in .venv, the browser for the page tests) and runs every test.
set -euo pipefail
cd "$(dirname "$0")"
source ./setup.sh
.venv/bin/ruff check .
.venv/bin/python -m pytest "$@"
