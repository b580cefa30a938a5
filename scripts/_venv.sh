# Shared by scripts/serve and scripts/test (sourced, not run): make sure the virtual
# environment exists and holds the pinned requirements.
#
#   ensure_venv requirements.txt
#
# Creates $VENV (default .venv) with Python 3.11 or newer if missing, and runs pip only
# when the requirements files changed since the last install (a stamp in $VENV), so a
# second run is quick.

VENV=${VENV:-.venv}

find_python() {
    local candidate
    for candidate in ${PYTHON:-} python3.11 python3.12 python3.13 python3; do
        if command -v "$candidate" >/dev/null 2>&1 \
            && "$candidate" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    echo "Dashain needs Python 3.11 or newer with venv (on Debian: apt-get install python3-venv)." >&2
    echo "Set PYTHON=/path/to/python3.11 to choose one." >&2
    return 1
}

ensure_venv() {
    local requirements=$1
    if [[ ! -x $VENV/bin/python ]]; then
        local python
        python=$(find_python)
        echo "Creating the virtual environment in $VENV with $python"
        "$python" -m venv --clear "$VENV"  # --clear: a broken one is rebuilt
    fi
    # The stamp covers the requirements file and every file it includes.
    local stamp="$VENV/.installed-$(basename "$requirements").sha256"
    local digest
    digest=$(cat requirements*.txt | sha256sum | cut -d' ' -f1)
    if [[ ! -f $stamp || $(cat "$stamp") != "$digest" ]]; then
        echo "Installing $requirements into $VENV"
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
        echo "$digest" >"$stamp"
    fi
}
