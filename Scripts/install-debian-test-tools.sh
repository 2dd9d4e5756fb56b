#!/usr/bin/env bash
# Installs the Debian packages the tests use as real peers (strace: the system-call recorder and fault
# injector of the crash and power-loss tests; gdb and lldb-16: the debuggers of the debugging tests; chromium:
# the headless browser that loads the HTML reports) when they are missing, and prints nothing else on stdout
# but the path of each tool, one per line, in the order named. Idempotent, and safe to call from several
# test processes at once (an flock serialises installs).
#
#   Scripts/install-debian-test-tools.sh strace      # install if needed, print /usr/bin/strace
#
# The installs are system-wide (apt-get, as root); CPS_NO_SYSTEM_INSTALL=1 turns them off: a missing tool
# is then an error naming the variable.
#
# Exit status: 0 every tool is there; 1 a tool could not be installed (not root, no apt-get, no
# network, CPS_NO_SYSTEM_INSTALL set): the reason is on stderr.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$root/.build"
exec 9>"$root/.build/debian-test-tools.lock"
flock 9
for tool in "$@"; do
    if ! command -v "$tool" >/dev/null; then
        if [ -n "${CPS_NO_SYSTEM_INSTALL:-}" ] && [ "${CPS_NO_SYSTEM_INSTALL}" != 0 ]; then
            echo "install-debian-test-tools: $tool is missing, and CPS_NO_SYSTEM_INSTALL=$CPS_NO_SYSTEM_INSTALL turns off system-wide installs; install the Debian package '$tool' yourself, or unset CPS_NO_SYSTEM_INSTALL" >&2
            exit 1
        fi
        if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
            echo "install-debian-test-tools: $tool is missing; install the Debian package '$tool' (needs root and apt-get)" >&2
            exit 1
        fi
        if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$tool" >&2; then
            apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$tool" >&2 \
                || { echo "install-debian-test-tools: apt-get could not install $tool" >&2; exit 1; }
        fi
    fi
    command -v "$tool"
done
