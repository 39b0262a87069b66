#!/usr/bin/env bash
# What `npm test` needs beyond npm packages: Java 17 and Maven for its Neo4j server (neo4j/) and
# Chromium for the console's browser tests. Run before the tests (`pretest`). Missing ones are
# installed from Debian's packages when this runs as root on a Debian-like system (the machine as
# it comes); elsewhere it names the command and fails, so that no suite dies half-way for them.
set -euo pipefail

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
command -v java > /dev/null || missing+=(default-jdk-headless)
command -v mvn > /dev/null || missing+=(maven)
[ -x "$chromium" ] || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ -n "${CHROMIUM_PATH:-}" ] && [ ! -x "$chromium" ]; then
  echo "test prerequisites: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get > /dev/null; then
  echo "test prerequisites: missing ${missing[*]}; install them (Debian: sudo apt-get install" \
    "${missing[*]}), or set CHROMIUM_PATH to a Chromium" >&2
  exit 1
fi
echo "test prerequisites: installing ${missing[*]} from Debian's packages (apt-get)…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
echo "test prerequisites: installed ${missing[*]}" >&2
