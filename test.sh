#!/usr/bin/env bash
# Sets everything up (a virtual environment in .venv with the project and its test tools) and runs every test,
# the slow end-to-end runs included, in as many processes as the machine has cores (pytest-xdist).
set -euo pipefail
cd "$(dirname "$0")"
source ./setup.sh
.venv/bin/ruff check .
.venv/bin/python -m pytest -n auto --slow "$@"
