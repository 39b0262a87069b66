#!/usr/bin/env bash
# Fuzzes the running service from its own OpenAPI document with Schemathesis (from PyPI): no
# answer may be a server error (5xx), and every answer must have a status and a body that the
# document gives for its operation (status, media type, body and headers). Fails on any finding.
#
# The service runs from source on a temporary store on a free port (SQLite; with
# API_FUZZ_STORE=neo4j, a Neo4j server of its own, started in the temporary folder), with a user and one
# token of each role made with the command line, and a repository, units, an agent and a concept
# imported, so that the portal has items of each type to answer with. Schemathesis is installed into a virtualenv
# outside the clone (SCHEMATHESIS_VENV, default ~/.cache/archival-data-service/schemathesis-venv),
# at the exact versions of scripts/schemathesis-requirements.txt (Schemathesis, Hypothesis and
# everything they use), and made again whenever that file changes. The run is bounded:
# API_FUZZ_SECONDS (default 120) for the fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${SCHEMATHESIS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/archival-data-service/schemathesis-venv}"
REQUIREMENTS="$PWD/scripts/schemathesis-requirements.txt"
SECONDS_BUDGET="${API_FUZZ_SECONDS:-120}"

if ! cmp -s "$REQUIREMENTS" "$VENV/requirements.txt"; then
  echo "== installing Schemathesis into $VENV"
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$REQUIREMENTS"
  "$VENV/bin/pip" check
  # Last, so that an interrupted install is made again on the next run.
  cp "$REQUIREMENTS" "$VENV/requirements.txt"
fi
echo "== $("$VENV/bin/schemathesis" --version)"

WORK="$(mktemp -d)"
SERVICE_PID=''
STORE="${API_FUZZ_STORE:-sqlite}"
cleanup() {
  if [ -n "$SERVICE_PID" ] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill -TERM "$SERVICE_PID"
    wait "$SERVICE_PID" || true
  fi
  if [ "$STORE" = neo4j ]; then node -r ./scripts/swc-register.js scripts/neo4j.ts stop || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PORT="$(free_port)"
BASE="http://127.0.0.1:$PORT"
export IMPORT_ROOTS="$WORK/roots" LOG_LEVEL=error
# The sources run through the project's SWC hook, which starts faster than ts-node.
case "$STORE" in
  sqlite) export GRAPH_URL="sqlite:$WORK/archive.db" ;;
  neo4j)
    echo "== a Neo4j server of its own"
    export NEO4J_DATA_DIR="$WORK/neo4j" NEO4J_BOLT_PORT="$(free_port)" NEO4J_PASSWORD=api-fuzz-password
    GRAPH_URL="$(node -r ./scripts/swc-register.js scripts/neo4j.ts start | tail -n 1)"
    export GRAPH_URL
    ;;
  *) echo "API_FUZZ_STORE must be sqlite or neo4j, got \"$STORE\"" >&2; exit 2 ;;
esac
# The portal's limit off: the fuzzer's requests would be refused with 429 after the first minute's
# share. Imports are bounded by what they hold at once, which a fuzzer sending one at a time never meets.
export PORTAL_RATE_LIMIT=0
mkdir -p "$IMPORT_ROOTS"

cli() { node -r ./scripts/swc-register.js src/cli.ts "$@"; }
echo "== a user and a token of each role"
cli user add api-fuzz > /dev/null
# Piped, the command line writes its result as one JSON document: the token is its `token`.
token() {
  cli token create --role "$1" --user api-fuzz \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])'
}
export API_FUZZ_USER=api-fuzz
API_FUZZ_PORTAL_TOKEN="$(token portal)"
API_FUZZ_IMPORT_TOKEN="$(token import)"
API_FUZZ_OPS_TOKEN="$(token ops)"
export API_FUZZ_PORTAL_TOKEN API_FUZZ_IMPORT_TOKEN API_FUZZ_OPS_TOKEN
cli authority-set add persons > /dev/null
cli vocabulary add keywords > /dev/null

echo "== the service on port $PORT, on $GRAPH_URL"
PORT="$PORT" node -r ./scripts/swc-register.js src/main.ts > "$WORK/service.log" 2>&1 &
SERVICE_PID=$!
for _ in $(seq 1 120); do
  if curl -fs "$BASE/health/ready" > /dev/null; then break; fi
  if ! kill -0 "$SERVICE_PID" 2>/dev/null; then cat "$WORK/service.log"; exit 1; fi
  sleep 0.5
done
curl -fs "$BASE/health/ready" > /dev/null

echo "== items of each type to read"
import() {
  curl -fsS -X POST "$BASE/import/$1?$2&commit=true" -H "Authorization: Bearer $API_FUZZ_IMPORT_TOKEN" \
    -H 'X-User: api-fuzz' -H "Content-Type: ${3:-application/xml}" --data-binary @- > /dev/null
}
import eag 'scope=nl' < src/import/formats/eag/testdata/eag-2012.xml
REPOSITORY="$(curl -fsS "$BASE/api/v1/nl/search" -H "Authorization: Bearer $API_FUZZ_PORTAL_TOKEN" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["data"][0]["id"])')"
import ead "scope=$REPOSITORY" <<'XML'
<ead><eadheader><eadid>fuzz</eadid></eadheader>
<archdesc level="fonds"><did><unitid>F1</unitid><unittitle>A fonds</unittitle></did>
<dsc><c01 level="file"><did><unitid>F1-1</unitid><unittitle>A file</unittitle>
<unitdate normal="1940/1945">1940-1945</unitdate></did></c01></dsc></archdesc></ead>
XML
import eac 'scope=persons' <<'XML'
<eac-cpf xmlns="urn:isbn:1-931666-33-4"><control><recordId>fuzz-agent</recordId></control>
<cpfDescription><identity><entityId>fuzz-agent</entityId><entityType>person</entityType>
<nameEntry><part>A person</part></nameEntry></identity>
<description><existDates><date>1900-1980</date></existDates></description></cpfDescription></eac-cpf>
XML
import skos 'scope=keywords&format=text/turtle' text/turtle <<'TTL'
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
<http://example.org/keywords/camps> a skos:Concept ; skos:prefLabel "Camps"@en ;
  skos:altLabel "Lagers"@en ; skos:scopeNote "Places of detention"@en .
TTL

echo "== Schemathesis, for ${SECONDS_BUDGET} s"
status=0
# From the temporary folder, where Schemathesis keeps its cache of past findings. One worker:
# Hypothesis parses the source of the running program to collect constants, and CPython 3.11's
# AST constructor keeps its recursion depth per interpreter, not per thread, so that two workers
# parsing at once fail with "AST constructor recursion depth mismatch" (CPython gh-106905).
# Started from `python -c` for the same reason: the program then has no source file of its own,
# and Hypothesis finds no local module to parse at all.
CONFIG="$PWD/scripts/schemathesis.toml"
CHECKS=not_a_server_error,status_code_conformance,content_type_conformance
CHECKS=$CHECKS,response_schema_conformance,response_headers_conformance
(cd "$WORK" && "$VENV/bin/python" -c 'from schemathesis.cli import schemathesis; schemathesis()' \
  --config-file "$CONFIG" run "$BASE/openapi.json" \
  --checks "$CHECKS" \
  --max-time "$SECONDS_BUDGET" --request-timeout 30 --workers 1 --no-color \
  --warnings off) || status=$?
if [ "$status" -ne 0 ]; then
  echo "== the service's log (warnings and errors)"
  tail -n 50 "$WORK/service.log"
fi
exit "$status"
