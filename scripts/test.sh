#!/usr/bin/env bash
# Runs the whole test suite (every test target), after installing what is missing.
# Fails if the suite fails or if no test ran at all.
set -euo pipefail
cd "$(dirname "$0")/.."
# mark WHAT: one line with the time since the start, before each step (where CI time goes).
mark() { printf 'test.sh: [%02d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }
# chromium + chromium-driver + python3-venv: the browser tests (contact sheet, search page).
scripts/bootstrap.sh chromium chromium-driver python3-venv
log=$(mktemp)
# The Swift tests' scratch folders (catalogs, snapshots, copies of the binary for the
# unprivileged runs: about 150 MB a run) go into one folder of this run, removed at exit,
# not left in /tmp. Mode 755: the tests' unprivileged user must reach its own folders in it.
scratch=$(mktemp -d /tmp/glimpse-test-run.XXXXXX)
chmod 755 "$scratch"
# The PostgreSQL store's tests run on a throwaway cluster (initdb in a temporary folder, as
# an unprivileged user, loopback port). In CI (CI=true) a cluster that cannot start fails.
pgdir=""
cleanup() {
  rm -f "$log"; rm -rf "$scratch"
  if [ -n "$pgdir" ]; then scripts/pg-test-cluster.sh stop "$pgdir"; fi
}
trap cleanup EXIT
if [ -z "${GLIMPSE_TEST_POSTGRES_URL:-}" ]; then
  pgdir=$(mktemp -d /tmp/glimpse-pg.XXXXXX)
  if url=$(scripts/pg-test-cluster.sh start "$pgdir"); then
    export GLIMPSE_TEST_POSTGRES_URL="$url"
  elif [ "${CI:-}" = "true" ]; then
    echo "test.sh: cannot start the PostgreSQL test cluster (CI: the PostgreSQL tests must run)" >&2
    exit 1
  else
    echo "test.sh: warning: no PostgreSQL test cluster; the PostgreSQL tests will not run" >&2
    rm -rf "$pgdir"
    pgdir=""
  fi
fi
mark "debug build"
# The CLI tests run the real executable: build it first (swift test alone may not).
swift build --product glimpse 2>&1 | tail -n 3
mark "swift test"
set +e
TMPDIR="$scratch" swift test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
[ "$status" -eq 0 ] || { echo "test.sh: swift test failed (exit $status)" >&2; exit "$status"; }
if ! grep -Eq 'Test run with [1-9][0-9]* tests? .*passed' "$log"; then
  echo "test.sh: no Swift Testing run with at least one passing test was reported" >&2
  exit 1
fi
mark "fuzz targets"
# Every fuzz target must keep building from a clean clone and run: a few seconds each;
# the command-line fuzzer (glimpse itself on hostile files and arguments) for 20 s.
for target in decoder manifest pagetoken; do
  scripts/fuzz.sh "$target" 3 >"$log" 2>&1 || { tail -n 30 "$log" >&2; echo "test.sh: scripts/fuzz.sh $target failed" >&2; exit 1; }
  echo "test.sh: fuzz $target: $(grep -E '^Done [0-9]+ runs' "$log" || echo built)"
done
scripts/fuzz.sh cli 20 >"$log" 2>&1 || { tail -n 30 "$log" >&2; echo "test.sh: scripts/fuzz.sh cli failed" >&2; exit 1; }
echo "test.sh: fuzz cli: $(grep -E '^cli_fuzz: seed' "$log")"
mark "compare-formats --quick"
# The format comparison's quick mode (HEIC/AVIF/WebP beside heif-convert, avifdec, dwebp).
bash benchmarks/compare-formats.sh --quick
# glimpse serve: API fuzzing and load test, quick modes (each well under a minute).
mark "api-fuzz --quick"
GLIMPSE_BIN="$(swift build --show-bin-path)/glimpse" scripts/api-fuzz.sh --quick
mark "load-test --quick"
GLIMPSE_BIN="$(swift build --show-bin-path)/glimpse" scripts/load-test.sh --quick
mark "index-stores --quick"
# Index throughput into SQLite beside PostgreSQL, quick mode (on the test cluster; ~20 s).
bash benchmarks/index-stores.sh --quick --glimpse "$(swift build --show-bin-path)/glimpse"
mark "cluster-demo --quick"
# Two partitions × two replicas behind haproxy on one PostgreSQL catalog (a throwaway cluster
# of its own): exact merge, removal, a replica killed under load, a partition lost; ~40 s.
GLIMPSE_BIN="$(swift build --show-bin-path)/glimpse" scripts/cluster-demo.sh --quick
mark "partitions --quick"
# One replica of everything against two partition replicas: latency, fan-out cost, CPU, answers (~30 s).
GLIMPSE_BIN="$(swift build --show-bin-path)/glimpse" bash benchmarks/partitions.sh --quick
mark "browser test"
# The search page in headless Chromium (WebDriver) against a live glimpse serve; fails,
# never skips, when the browser cannot start. About 30 s.
scripts/browser-test.sh "$(swift build --show-bin-path)/glimpse"
mark "demo.sh (release build)"
# The README's first command (release build, index the sample catalog, query the screenshot).
bash scripts/demo.sh
# Every other command the README names, in its quick mode, so none rots unnoticed (each
# reuses the release build demo.sh made; a few minutes together).
source scripts/lib/release-build.sh
release=$(release_glimpse)
mark "check_readme"
# Every command example of the README, run against the sample catalog and compared with the
# text shown (timings, tokens, ids and dates masked): a changed output fails until the README
# is updated (scripts/check_readme.py --write).
python3 scripts/check_readme.py "$release"
# The README's install and admin-token steps (into a scratch folder instead of ~/.local/bin).
readme_scratch=$(mktemp -d)
install -D -m 755 "$release" "$readme_scratch/.local/bin/glimpse"
"$readme_scratch/.local/bin/glimpse" --help >/dev/null
(cd "$readme_scratch" && (umask 077; head -c 24 /dev/urandom | base64 | tr -d '/+=' > admin-token) && grep -Eq '^[A-Za-z0-9]{16,}$' admin-token) \
  || { echo "test.sh: the README's admin-token command made a token the server would refuse" >&2; exit 1; }
rm -rf "$readme_scratch"
mark "pool_minimum_scores"
# ACCURACY's minimum-score table is pooled from eval reports by this script: one quick eval
# (a single transformation, under a second) through it, so the command cannot rot.
eval_json=$(mktemp)
"$release" eval --catalog testdata/catalog --negatives testdata/negatives --transformations jpeg-q75 --json > "$eval_json"
[ "$(python3 scripts/pool_minimum_scores.py sample="$eval_json" | grep -c '^| 0\.')" -eq 9 ] \
  || { echo "test.sh: scripts/pool_minimum_scores.py did not print the nine minimum scores" >&2; exit 1; }
rm -f "$eval_json"
mark "check-report, startup, server-ab"
scripts/check-report.sh "" "$release"
bash benchmarks/startup.sh --quick --glimpse "$release" --baseline "$release"
bash benchmarks/server-ab.sh --quick --a "$release" --b "$release"
mark "index-memory --quick"
# Peak memory of glimpse index at 300 and 3,000 photos on both stores; fails when the
# fingerprinting peak grows with the count (about 25 s).
bash benchmarks/index-memory.sh --quick --glimpse "$release"
mark "scale --quick"
# The scale benchmark on 3,000 crops of one wallpaper package (downloaded, not installed;
# about a minute), so the catalog generator, the real-query search rows and the goals table
# cannot rot; it runs benchmarks/live-add.sh --quick too (a running replica on that catalog,
# 100 images added with glimpse index --add, served without a rebuild).
bash benchmarks/scale.sh --quick --glimpse "$release"
mark "live-add --quick --postgres"
# Live additions on a PostgreSQL copy in a throwaway cluster, the replica mapping its own
# --snapshot (about a minute: the crops are fingerprinted again).
bash benchmarks/live-add.sh --quick --postgres --glimpse "$release"
mark "first-stage-crossover --quick"
# Exhaustive scan against the cascade at 1,000 and 3,000 of those crops (the second catalog
# is scale.sh's; about two minutes), so the measurement behind the first stage's size threshold
# cannot rot.
bash benchmarks/first-stage-crossover.sh --quick --glimpse "$release"
mark "faiss-first-stage --quick"
# The first stage beside faiss's binary IVF and HNSW on that catalog's codes and queries
# (installs libfaiss-dev, OpenBLAS and g++ when missing; about a minute).
bash benchmarks/faiss-first-stage.sh --quick --glimpse "$release"
mark "capacity --quick"
# The capacity catalog's snapshot-only build and its searches on 30,000 generated landmarks
# (about a minute), so the ten-million-image measurement cannot rot.
bash benchmarks/capacity.sh --quick --glimpse "$release"
mark "replicas --quick, compare-peers --quick, bench images"
GLIMPSE_BIN="$release" bash benchmarks/replicas.sh --quick
bash benchmarks/compare-peers.sh --quick --skip-accuracy
bash benchmarks/make-bench-images.sh
mark "benchmarks package (release build)"
# The package-benchmark harness (benchmarks/, run by compare-djpeg.sh and
# check-regressions.sh) must keep building; running it is a measurement, not a test.
(cd benchmarks && swift build -c release 2>&1 | tail -n 1)
mark "done"
echo "test.sh: all tests passed"
