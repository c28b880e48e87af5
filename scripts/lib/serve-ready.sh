# Waiting for a `glimpse serve` started by a script (sourced, never run): every script that
# starts one with `--port 0` (and a log level that keeps the `notice` line naming its
# address) waits for it the same way.

# wait_until_ready LOG PID [TIMEOUT_SECONDS] [POLL_SECONDS]: waits until the server PID,
# logging to LOG, answers /readyz, and prints its port. Fails (status 1, with its log on
# stderr) when the process exits first or TIMEOUT_SECONDS (default 120) pass; polls every
# POLL_SECONDS (default 0.1).
wait_until_ready() {
  local log=$1 pid=$2 timeout=${3:-120} poll=${4:-0.1} port=""
  local deadline=$((SECONDS + timeout))
  while [ "$SECONDS" -lt "$deadline" ]; do
    [ -n "$port" ] || port=$(sed -n 's/.*address=http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" | head -n 1)
    if [ -n "$port" ] && curl -sf -o /dev/null "http://127.0.0.1:$port/readyz"; then
      echo "$port"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep "$poll"
  done
  cat "$log" >&2
  return 1
}
