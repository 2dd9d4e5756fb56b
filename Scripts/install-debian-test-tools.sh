#!/usr/bin/env bash
# Installs the Debian packages the tests use (strace, for the power-loss replay) with apt-get, when
# they are missing, and prints the path of strace on stdout. Idempotent, and safe to call from several
# test processes at once (an flock serialises installs). Everything else it prints goes to stderr.
#
#   Scripts/install-debian-test-tools.sh     # install if needed, print the path of strace
#
# Installing needs root (the tests run as root on CI). `apt-get update` runs only when the install
# fails without it, so a machine with a fresh package list never waits for the network.
#
# Exit status: 0 installed (or already there); 1 the packages could not be installed (not root, no
# apt-get, no network): the reason is on stderr.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$root/.build"
exec 9>"$root/.build/debian-test-tools.lock"
flock 9
if ! command -v strace >/dev/null; then
    command -v apt-get >/dev/null || { echo "install-debian-test-tools: strace is missing and there is no apt-get" >&2; exit 1; }
    [ "$(id -u)" = 0 ] || { echo "install-debian-test-tools: strace is missing and installing it needs root" >&2; exit 1; }
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -qq strace >&2; then
        apt-get update -qq >&2 || { echo "install-debian-test-tools: apt-get update failed" >&2; exit 1; }
        apt-get install -y -qq strace >&2 || { echo "install-debian-test-tools: apt-get install strace failed" >&2; exit 1; }
    fi
fi
command -v strace
