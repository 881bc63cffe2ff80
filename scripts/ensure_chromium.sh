#!/bin/sh
# Make sure a headless-capable Chromium is installed, for the annotate report's browser
# test (tests/report/test_browser.py). Prints the browser's path on success.
#
#   scripts/ensure_chromium.sh            # install Debian's `chromium` when missing
#
# Exits 0 with the path on stdout when a browser is available, non-zero with a message
# on stderr that says why not and what to do.
set -u

for name in chromium chromium-browser google-chrome google-chrome-stable; do
    path=$(command -v "$name" 2>/dev/null) && { echo "$path"; exit 0; }
done

say() { echo "ensure_chromium: $*" >&2; }

if ! command -v apt-get >/dev/null 2>&1; then
    say "no chromium on PATH and no apt-get to install it; install Chromium or Chrome" \
        "yourself (any recent version) and put it on PATH"
    exit 2
fi
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
else
    say "no chromium on PATH, and installing it needs root (apt-get install -y chromium);" \
        "run that as root, or put Chromium/Chrome on PATH"
    exit 3
fi

export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y --no-install-recommends chromium >/dev/null 2>&1; then
    say "apt-get install chromium failed; refreshing the package lists and retrying"
    if ! { $SUDO apt-get update >/dev/null 2>&1 &&
           $SUDO apt-get install -y --no-install-recommends chromium >&2; }; then
        say "could not install Debian's chromium package (see apt-get's output above);" \
            "check the network or the apt sources, or put Chromium/Chrome on PATH"
        exit 4
    fi
fi
path=$(command -v chromium 2>/dev/null) || {
    say "apt-get reported success but chromium is not on PATH"
    exit 5
}
echo "$path"
