#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests (test/web/) when it is missing.
# Runs before `npm test`; does nothing when /usr/bin/chromium is already there.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available." >&2
  echo "ensure-chromium: install Chromium so that $CHROMIUM exists, then run the tests again." >&2
  exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-chromium: $CHROMIUM is missing; installing it needs root." >&2
  echo "ensure-chromium: run as root:  apt-get update && apt-get install -y chromium" >&2
  exit 1
fi

echo "ensure-chromium: installing Debian's chromium for the browser tests" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
# The wrapper script of the package prints a harmless shell warning on some systems: keep only the version.
"$CHROMIUM" --version 2>/dev/null >&2
