-- Request shapes for wrk beyond a plain GET, chosen by BENCH_MODE, and one JSON line of results.
--   patch-batch: PATCH /v2/batches/<id> {"measuredOg": ...}, ids from BENCH_IDS (comma list)
--   adjust:      PATCH <BENCH_BASE>/<id> {"inventory_adjust": +1 or -1}, so stock stays level
--   mixed:       GET of each path in BENCH_PATHS (comma list) in turn, every fifth request a batch PATCH
--   append:      POST /v2/batches/<first of BENCH_IDS>/readings, at one of 100 fixed times from
--                BENCH_APPEND_FROM in turn, so a reading replaces the one posted at its time and the
--                batch keeps its size
--   stream:      POST /stream?id=<BENCH_LOGGING_ID> as a Custom Stream device, 100 device names in turn
local mode = os.getenv("BENCH_MODE") or "get"
local auth = os.getenv("BENCH_AUTH")
local appendFrom = mode == "append" and assert(tonumber(os.getenv("BENCH_APPEND_FROM")), "append mode needs BENCH_APPEND_FROM") or nil
local function split(s)
  local out = {}
  for part in string.gmatch(s or "", "[^,]+") do out[#out + 1] = part end
  return out
end
local ids = split(os.getenv("BENCH_IDS"))
local paths = split(os.getenv("BENCH_PATHS"))
local base = os.getenv("BENCH_BASE") or "/v2/batches"
local n = 0
local headers = { ["Authorization"] = auth, ["Content-Type"] = "application/json" }

if mode ~= "get" then
  request = function()
    n = n + 1
    local id = ids[(n % #ids) + 1]
    if mode == "stream" then
      local body = string.format('{"name":"bench-%d","temp":%.1f,"gravity":%.3f,"gravity_unit":"G"}', n % 100, 18 + (n % 10) / 10, 1.010 + (n % 30) / 1000)
      return wrk.format("POST", "/stream?id=" .. os.getenv("BENCH_LOGGING_ID"), { ["Content-Type"] = "application/json" }, body)
    end
    if mode == "append" then
      local body = string.format('{"time":%d,"sg":%.3f,"temp":18.5}', appendFrom + (n % 100) * 60000, 1.010 + (n % 30) / 1000)
      return wrk.format("POST", "/v2/batches/" .. ids[1] .. "/readings", headers, body)
    end
    if mode == "patch-batch" or (mode == "mixed" and n % 5 == 0) then
      local og = string.format("%.3f", 1.040 + (n % 30) / 1000)
      return wrk.format("PATCH", "/v2/batches/" .. id, headers, '{"measuredOg":' .. og .. '}')
    elseif mode == "adjust" then
      local step = (n % 2 == 0) and "1" or "-1"
      return wrk.format("PATCH", base .. "/" .. id, headers, '{"inventory_adjust":' .. step .. '}')
    end
    return wrk.format("GET", paths[(n % #paths) + 1], headers)
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests":%d,"duration_us":%d,"bytes":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(99),
    latency.max, e.connect, e.read, e.write, e.status, e.timeout))
end
