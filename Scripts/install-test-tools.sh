#!/usr/bin/env bash
# Installs the Python peers the tests talk to (a CardDAV server, an independent vCard reader) from the
# Python package index into one virtual environment under .build/, on first use, and prints the path of
# that environment's python3 on stdout. Idempotent, and safe to call from several test processes at once
# (an flock serialises installs). Everything it prints besides that path goes to stderr.
#
#   Scripts/install-test-tools.sh            # install if needed, print the venv's python3
#
# Exit status: 0 installed (or already there); 1 the packages could not be installed (no network, no
# python3 with venv): the reason is on stderr.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
requirements="$root/Scripts/test-tools-requirements.txt"
venv="$root/.build/test-tools-venv"
mkdir -p "$root/.build"
# The stamp names the requirements' hash, so a changed pin reinstalls.
stamp="$venv/.installed-$(sha256sum "$requirements" | cut -c1-16)"
exec 9>"$root/.build/test-tools.lock"
flock 9
if [ ! -f "$stamp" ]; then
    command -v python3 >/dev/null || { echo "install-test-tools: python3 is not installed" >&2; exit 1; }
    rm -rf "$venv"
    python3 -m venv "$venv" >&2 || { echo "install-test-tools: python3 -m venv failed" >&2; exit 1; }
    "$venv/bin/python3" -m pip install --disable-pip-version-check --no-input -q -r "$requirements" >&2 \
        || { echo "install-test-tools: pip could not install $requirements" >&2; rm -rf "$venv"; exit 1; }
    touch "$stamp"
fi
echo "$venv/bin/python3"
