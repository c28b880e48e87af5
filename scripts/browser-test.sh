#!/usr/bin/env bash
# The search page (GET / of `glimpse serve`) in a real browser: headless Chromium driven
# through WebDriver (Debian's chromium + chromium-driver, selenium from PyPI in the private
# venv .venv-browser/). Builds glimpse, indexes testdata/catalog/manifest.json into a
# temporary database, starts `glimpse serve` on a free loopback port, and runs
# scripts/browser_test.py against it: upload the sample screenshot, select the documented
# region, first card Hurricane Ridge, "More results" appends, entity dialog with a deferred
# property, keyboard region, an EXIF-rotated JPEG, a non-image and a HEIC file, the server
# going away; screenshots at 1280x900 and 390x844 checked not blank; and the filter of a
# `glimpse match --report` contact sheet.
#
# Usage: scripts/browser-test.sh [GLIMPSE_BINARY]
#   GLIMPSE_BROWSER_SHOTS=DIR keeps the screenshots there (default: a new temporary folder,
#   printed at the end and kept).
# Installs chromium, chromium-driver and python3-venv with apt and selenium with pip when
# missing. Exit: 0 every check passed; 1 a check failed, or the browser, the driver or the
# server could not start (never a skip).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
scripts/bootstrap.sh chromium chromium-driver python3-venv
[[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]] || { echo "browser-test: chromium or chromedriver missing after install" >&2; exit 1; }
python=/usr/bin/python3
[[ -x $python ]] || python=python3
venv=.venv-browser
if ! "$venv/bin/python" -c "import selenium" >/dev/null 2>&1; then
    echo "browser-test: installing selenium into $venv" >&2
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "selenium>=4.20,<5" >&2
fi
if [[ -z "$bin" ]]; then
    swift build --product glimpse 2>&1 | tail -n 1 >&2
    bin="$(swift build --show-bin-path)/glimpse"
fi
work=$(mktemp -d)
shots=${GLIMPSE_BROWSER_SHOTS:-$(mktemp -d)/browser-test}
server=""
cleanup() {
    if [[ -n "$server" ]] && kill -0 "$server" 2>/dev/null; then
        kill -TERM "$server" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$server" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
"$bin" index testdata/catalog/manifest.json --db "$work/catalog.sqlite" >"$work/index.log" 2>&1 \
    || { cat "$work/index.log" >&2; echo "browser-test: indexing the sample catalog failed" >&2; exit 1; }
# A contact sheet (glimpse match --report) to check its filter in the same browser.
mkdir -p "$work/photos"
cp testdata/catalog/food/apricot.jpg testdata/catalog/food/avocado.jpg testdata/negatives/anemone.jpg "$work/photos/"
cp testdata/jpeg/corrupt_bitflips.jpg "$work/photos/broken.jpg"
"$bin" match "$work/photos" --db "$work/catalog.sqlite" --out "$work/rows.jsonl" --report "$work/report.html" >/dev/null 2>&1 || true
[[ -s "$work/report.html" ]] || { echo "browser-test: glimpse match wrote no contact sheet" >&2; exit 1; }
port=$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# A 4 MB body limit (the samples are under 400 KB) so the test can be refused a larger file.
"$bin" serve --db "$work/catalog.sqlite" --host 127.0.0.1 --port "$port" --max-body-bytes 4000000 >"$work/server.log" 2>&1 &
server=$!
base="http://127.0.0.1:$port"
ready=0
for _ in $(seq 300); do
    kill -0 "$server" 2>/dev/null || break
    if "$venv/bin/python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' "$base/readyz" >/dev/null 2>&1; then
        ready=1; break
    fi
    sleep 0.1
done
if [[ $ready != 1 ]]; then
    tail -n 20 "$work/server.log" >&2
    echo "browser-test: glimpse serve did not become ready on $base within 30 s" >&2
    exit 1
fi
echo "browser-test: glimpse serve on $base; screenshots in $shots" >&2
set +e
"$venv/bin/python" scripts/browser_test.py "$base" "$shots" "$server" "$work/report.html"
status=$?
set -e
if [[ $status -ne 0 ]]; then
    echo "browser-test: the last lines of the server's log:" >&2
    tail -n 15 "$work/server.log" >&2
fi
echo "browser-test: screenshots kept in $shots" >&2
exit $status
