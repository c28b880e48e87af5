#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer (with LeakSanitizer) and under
# ThreadSanitizer, each in its own scratch folder (.build-asan, .build-tsan) so the normal
# .build/ is untouched. The C shims are instrumented too (SwiftPM passes the sanitizer to
# clang); system libraries (libpng, libjpeg, SQLite) are not, but their allocations are
# intercepted.
#
#   scripts/sanitize.sh            # both
#   scripts/sanitize.sh address    # one of them
#   scripts/sanitize.sh thread
#
# Fails if a build or a test fails, if a sanitizer reports anything (the runtime makes the
# process exit non-zero), or if no Swift Testing run with passing tests was reported.
# Logs: .build-asan/sanitize.log, .build-tsan/sanitize.log.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh

kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(address thread)

# halt_on_error: the first report fails the run. Leak checking is on by default with ASan.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(pwd)/scripts/lsan-suppressions.txt:print_suppressions=0}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

status=0
for kind in "${kinds[@]}"; do
  case "$kind" in
    address) scratch=.build-asan ;;
    thread)  scratch=.build-tsan ;;
    *) echo "usage: scripts/sanitize.sh [address|thread]..." >&2; exit 1 ;;
  esac
  mkdir -p "$scratch"
  log="$scratch/sanitize.log"
  echo "sanitize.sh: building with --sanitize=$kind in $scratch" >&2
  if ! swift build --build-tests --scratch-path "$scratch" --sanitize="$kind" >"$scratch/build.log" 2>&1; then
    tail -30 "$scratch/build.log" >&2
    echo "sanitize.sh: $kind build failed (log: $scratch/build.log)" >&2
    status=1
    continue
  fi
  echo "sanitize.sh: testing with --sanitize=$kind" >&2
  set +e
  # --disable-xctest: the suite is Swift Testing only, and XCTest's empty run leaks a few
  # of its own suite objects (libXCTest), which LeakSanitizer would report.
  swift test --skip-build --disable-xctest --scratch-path "$scratch" --sanitize="$kind" >"$log" 2>&1
  test_status=$?
  set -e
  grep -E "Test run with|✘|ERROR: (Address|Thread|Leak)Sanitizer|WARNING: ThreadSanitizer|SUMMARY:" "$log" | tail -20 >&2 || true
  if [ "$test_status" -ne 0 ]; then
    echo "sanitize.sh: $kind: tests failed or the sanitizer reported (exit $test_status; log: $log)" >&2
    status=1
  elif grep -Eq "ERROR: (Address|Thread|Leak)Sanitizer|WARNING: ThreadSanitizer" "$log"; then
    echo "sanitize.sh: $kind: sanitizer report in $log" >&2
    status=1
  elif ! grep -Eq 'Test run with [1-9][0-9]* tests? .*passed' "$log"; then
    echo "sanitize.sh: $kind: no passing Swift Testing run reported (log: $log)" >&2
    status=1
  else
    echo "sanitize.sh: $kind: $(grep -E 'Test run with' "$log" | tail -1)" >&2
  fi
done
exit "$status"
