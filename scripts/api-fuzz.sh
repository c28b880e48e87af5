#!/usr/bin/env bash
# API fuzzing of `glimpse serve` with schemathesis (PyPI, private venv .venv-schemathesis/):
# generated requests from Sources/GlimpseAPITypes/openapi.yaml against a live server on loopback,
# over a scratch copy of the sample catalog, with the admin endpoints enabled.
# Fails on any 5xx or any answer that does not conform to the document (status code,
# content type, headers, body schema).
#
# Usage: scripts/api-fuzz.sh [N]     N examples per operation (default 100: thousands of requests)
#        scripts/api-fuzz.sh --quick  N=4, well under a minute (scripts/test.sh runs this)
# Env:   GLIMPSE_BIN=path (skip the build), GLIMPSE_FUZZ_LOG=file (keep schemathesis's output)
set -euo pipefail
cd "$(dirname "$0")/.."
examples=100
[ "${1:-}" = "--quick" ] && examples=4
[[ "${1:-}" =~ ^[0-9]+$ ]] && examples=$1

scripts/bootstrap.sh curl
venv=.venv-schemathesis
if [ ! -x "$venv/bin/schemathesis" ]; then
  echo "api-fuzz: installing schemathesis into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "schemathesis==4.32.5"
fi

if [ -n "${GLIMPSE_BIN:-}" ]; then
  bin=$GLIMPSE_BIN
else
  swift build --product glimpse 2>&1 | tail -n 1
  bin="$(swift build --show-bin-path)/glimpse"
fi
work=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

"$bin" index testdata/catalog/manifest.json --db "$work/catalog.sqlite" >/dev/null 2>&1
token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "$token" > "$work/admin-token"
"$bin" serve --db "$work/catalog.sqlite" --port 0 --admin-token-file "$work/admin-token" --log-level notice \
  --max-concurrent-searches 64 2> "$work/serve.log" &
server_pid=$!
source scripts/lib/serve-ready.sh
port=$(wait_until_ready "$work/serve.log" "$server_pid") || { echo "api-fuzz: glimpse serve did not start (its log above)" >&2; exit 1; }
base="http://127.0.0.1:$port"

started=$(date +%s)
run_schemathesis() {
  set +e
  "$venv/bin/schemathesis" run Sources/GlimpseAPITypes/openapi.yaml --url "$base" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
    --max-examples "$examples" --seed 20261124 --workers 2 --request-timeout 30 \
    -H "Authorization: Bearer $token" --suppress-health-check all --no-color \
    --report ndjson --report-ndjson-path "$work/events.ndjson" > "$work/schemathesis.log" 2>&1
  status=$?
  set -e
}
run_schemathesis
# schemathesis 4.32.5 once stopped its coverage phase with a "Runtime Error" of its own in a
# CI-like run (every test case passed, no check failed, the server alive; four reruns on
# the same machine passed). Such a run is repeated once, with its log shown; any failed check, a dead
# server or a second error still fails.
if [ "$status" -ne 0 ] && grep -q 'Runtime Error' "$work/schemathesis.log" \
   && ! grep -Eq '[0-9]+ failed' "$work/schemathesis.log" && kill -0 "$server_pid" 2>/dev/null; then
  echo "api-fuzz: schemathesis stopped on an error of its own (no failed check); its log, then one more run:" >&2
  tail -n 80 "$work/schemathesis.log" >&2
  run_schemathesis
fi
elapsed=$(( $(date +%s) - started ))
cp "$work/schemathesis.log" "${GLIMPSE_FUZZ_LOG:-/dev/null}" 2>/dev/null || true
if [ "$status" -eq 0 ]; then tail -n 30 "$work/schemathesis.log"; else tail -n 120 "$work/schemathesis.log"; fi
generated=$(sed -n 's/^ *\([0-9][0-9]*\) generated.*/\1/p' "$work/schemathesis.log" | tail -n 1)
if ! kill -0 "$server_pid" 2>/dev/null; then
  echo "api-fuzz: the server died during the run" >&2; cat "$work/serve.log" >&2; exit 1
fi
echo "api-fuzz: examples/operation=$examples, ${generated:-?} generated test cases, elapsed ${elapsed}s, schemathesis exit $status (5xx answers fail the not_a_server_error check)"
[ "$status" -eq 0 ] || { echo "api-fuzz: schemathesis found failures (see above)" >&2; exit 1; }
echo "api-fuzz: passed"
