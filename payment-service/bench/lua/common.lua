-- Shared by every benchmark script: thread numbering, file loading, and the machine-readable summary.
-- Loaded with dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua") from each scenario script.
local common = {}

common.auth = "Bearer " .. (os.getenv("BENCH_API_KEY") or "sk_test_demo")
common.run = os.getenv("BENCH_RUN") or tostring(os.time())

-- setup() runs in the main Lua state once per thread, before the thread's init(): give every thread its number,
-- so ids built from (run, thread, counter) are unique across threads and runs.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
  thread:set("nthreads", tonumber(os.getenv("BENCH_THREADS") or "1"))
end

function common.read_lines(path)
  local lines = {}
  local f = assert(io.open(path, "r"), "cannot open " .. tostring(path))
  for line in f:lines() do
    if line ~= "" then lines[#lines + 1] = line end
  end
  f:close()
  assert(#lines > 0, "no lines in " .. path)
  return lines
end

function common.split_tabs(line)
  local fields = {}
  for field in string.gmatch(line, "([^\t]+)") do fields[#fields + 1] = field end
  return fields
end

function common.create_body(booking)
  return '{"bookingId":"' .. booking .. '","amount":12000,"currency":"JPY","paymentMethod":"pm_card_ok"}'
end

function common.create_request(key, booking)
  return wrk.format("POST", "/v1/payments", {
    ["Authorization"] = common.auth,
    ["Idempotency-Key"] = key,
    ["Content-Type"] = "application/json",
  }, common.create_body(booking))
end

-- A pre-signed webhook line: webhook-id TAB timestamp TAB signature TAB body.
function common.webhook_request(line)
  local f = common.split_tabs(line)
  return wrk.format("POST", "/v1/webhooks/sandbox", {
    ["webhook-id"] = f[1],
    ["webhook-timestamp"] = f[2],
    ["webhook-signature"] = f[3],
    ["Content-Type"] = "application/json",
  }, f[4])
end

-- One line the shell parses. Latencies in microseconds; errors: socket errors and non-2xx/3xx statuses.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "BENCH_RESULT requests=%d duration_us=%d rps=%.2f p50_us=%d p99_us=%d max_us=%d mean_us=%.0f " ..
    "err_connect=%d err_read=%d err_write=%d err_timeout=%d err_status=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), latency.max, latency.mean,
    e.connect, e.read, e.write, e.timeout, e.status))
end

return common
