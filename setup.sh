# Sourced by demo.sh and test.sh: makes .venv and installs the project with its test tools.
# Re-runs are fast: nothing is reinstalled while pyproject.toml is unchanged.
if ! command -v python3 >/dev/null 2>&1; then
    echo "setup: python3 (3.11 or newer) is needed: sudo apt-get install python3 python3-venv" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
stamp=.venv/.tressette-installed
want=$(cat pyproject.toml | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e '.[test]'
    echo "$want" > "$stamp"
fi
