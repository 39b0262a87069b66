#!/usr/bin/env bash
# Makes the virtualenv of the OAI-PMH harvester the tests harvest the provider with (Sickle, from
# PyPI), at the exact versions of scripts/oai-harvester-requirements.txt, and prints its Python.
# It lives outside the clone (OAI_HARVESTER_VENV, default
# ~/.cache/archival-data-service/oai-harvester-venv) and is made again whenever that file changes.
# Needs python3 with venv (Debian: python3-venv) and PyPI; fails, saying why, without them.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${OAI_HARVESTER_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/archival-data-service/oai-harvester-venv}"
REQUIREMENTS="$PWD/scripts/oai-harvester-requirements.txt"

if ! cmp -s "$REQUIREMENTS" "$VENV/requirements.txt"; then
  echo "== installing Sickle into $VENV" >&2
  rm -rf "$VENV"
  python3 -m venv "$VENV" >&2
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$REQUIREMENTS" >&2
  "$VENV/bin/pip" check >&2
  # Last, so that an interrupted install is made again on the next run.
  cp "$REQUIREMENTS" "$VENV/requirements.txt"
fi
"$VENV/bin/python" -c 'import sickle' >&2
echo "$VENV/bin/python"
