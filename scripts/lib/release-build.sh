# The one release build of glimpse (sourced, never run): every script that wants a release
# glimpse calls release_glimpse, so all of them build it the same way and share one build
# tree (a build with other flags in the same tree recompiles every module).
#
# --static-swift-stdlib: the Swift runtime and Foundation linked into the executable. Linked
# dynamically, every glimpse process spent about 5 ms resolving symbols across 14 Swift
# libraries before main (measured then; today's start-up: docs/PERFORMANCE.md, "Start-up").

# release_glimpse [SWIFT BUILD OPTIONS...]: builds the release glimpse product and prints
# the executable's path. The build's output goes to stderr: all of it with
# GLIMPSE_BUILD_VERBOSE=1 (as it happens), else its last line (all of it when it fails).
release_glimpse() {
  local flags=(-c release --static-swift-stdlib "$@")
  if [ "${GLIMPSE_BUILD_VERBOSE:-0}" = 1 ]; then
    swift build "${flags[@]}" --product glimpse >&2 || return 1
  else
    local log
    log=$(mktemp)
    if ! swift build "${flags[@]}" --product glimpse >"$log" 2>&1; then
      cat "$log" >&2
      rm -f "$log"
      return 1
    fi
    tail -n 1 "$log" >&2
    rm -f "$log"
  fi
  echo "$(swift build "${flags[@]}" --show-bin-path)/glimpse"
}
