# Option handling shared by the measurement scripts (sourced, never run):
# benchmarks/index-stores.sh, benchmarks/startup.sh, benchmarks/compare-peers.sh.

# usage SCRIPT: prints SCRIPT's header comment (line 2 up to the `set -euo` line, without
# the leading "# "), which is its --help text.
usage() {
  sed -n '2,/^set -euo/p' "$1" | sed '$d; s/^# \{0,1\}//'
}

# unknown_argument NAME ARG: says ARG is not an option of script NAME, on stderr, and exits 1.
unknown_argument() {
  echo "$1: unknown argument $2 (see --help)" >&2
  exit 1
}

# release_glimpse: scripts/lib/release-build.sh (the one release build).
source "$(dirname "${BASH_SOURCE[0]}")/release-build.sh"
