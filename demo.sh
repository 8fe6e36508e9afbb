#!/usr/bin/env bash
# Sets everything up (a virtual environment in .venv) and runs the main job on its embedded default:
# the bundled demo game, no camera needed.
set -euo pipefail
cd "$(dirname "$0")"
source ./setup.sh
exec .venv/bin/tressette "$@"
