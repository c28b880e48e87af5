-- The wrk script of scripts/load-test.sh and benchmarks/replicas.sh (one request per
-- call; one RESULT line at the end with requests/s, p50/p99 in ms, failed, busy (429),
-- socket errors and partial pages (`"partial":true` in the answer)). Environment: BODY_FILE (POST its bytes; none: GET), BODY_LIST (POST each file it names in turn), BODY_TYPE (its
-- Content-Type), RANDOM_PDQ=1 (POST a different random PDQ lookup every request).
local body_file = os.getenv("BODY_FILE")
if body_file and body_file ~= "" then
  local f = assert(io.open(body_file, "rb"))
  wrk.method = "POST"
  wrk.body = f:read("*a")
  f:close()
  wrk.headers["Content-Type"] = os.getenv("BODY_TYPE") or "application/octet-stream"
end
-- BODY_LIST: a file naming one body file a line (scripts/lib/distinct_copies.py writes one);
-- each thread POSTs them in turn, starting at its own place (thread k at k * 0.618 of the
-- list: with two threads the same body comes back after about 0.38 of the list from the one
-- and 0.62 from the other), so that requests differ: the server keeps complete rankings per
-- query and answers a body sent again from them. Make the list longer than twice the kept
-- rankings (256 by default) for every request to be a search.
local body_list = os.getenv("BODY_LIST")
if body_list and body_list ~= "" then
  local bodies = {}
  for path in io.lines(body_list) do
    local f = assert(io.open(path, "rb"))
    bodies[#bodies + 1] = f:read("*a")
    f:close()
  end
  assert(#bodies > 0, "BODY_LIST names no file")
  wrk.method = "POST"
  wrk.headers["Content-Type"] = os.getenv("BODY_TYPE") or "application/octet-stream"
  local next_body = nil
  request = function()
    if next_body == nil then next_body = math.floor((thread_number or 0) * 0.618 * #bodies) % #bodies end
    next_body = next_body % #bodies + 1
    return wrk.format(nil, nil, nil, bodies[next_body])
  end
end
-- RANDOM_PDQ=1: every request looks up a different random PDQ (no ranking-cache hits:
-- each one scans the whole index).
if os.getenv("RANDOM_PDQ") == "1" then
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  request = function()
    local digits = {}
    for i = 1, 64 do digits[i] = string.format("%x", math.random(0, 15)) end
    return wrk.format(nil, nil, nil, '{"pdq": "' .. table.concat(digits) .. '"}')
  end
end
local threads = {}
function setup(thread)
  thread:set("thread_number", #threads)
  table.insert(threads, thread)
end
function init(args) busy = 0; failed = 0; partial = 0 end
function response(status, headers, body)
  if status == 429 then busy = busy + 1 elseif status >= 300 then failed = failed + 1 end
  if body and string.find(body, '"partial":true', 1, true) then partial = partial + 1 end
end
function done(summary, latency, requests)
  local busy, failed, partial = 0, 0, 0
  for _, t in ipairs(threads) do busy = busy + t:get("busy"); failed = failed + t:get("failed"); partial = partial + t:get("partial") end
  local e = summary.errors
  io.write(string.format("RESULT rps=%.1f p50_ms=%.2f p99_ms=%.2f requests=%d failed=%d busy=%d socket_errors=%d partial=%d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.requests, failed, busy, e.connect + e.read + e.write + e.timeout, partial))
end
