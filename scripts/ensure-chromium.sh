#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (Playwright's own browser download
# cannot work on these machines). Install it when missing and we are root;
# otherwise say exactly what to install.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$browser" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium not found at $browser: installing Debian's chromium package (about 30 s)…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  exit 0
fi
cat >&2 <<MSG
Chromium is required for the browser tests and was not found at $browser.
Install it with:   sudo apt-get update && sudo apt-get install -y chromium
or point CHROMIUM_PATH at an existing Chromium/Chrome binary.
MSG
exit 1
