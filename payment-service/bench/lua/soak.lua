-- Soak: half creates (new key, new booking), half GETs of existing payments (BENCH_IDS_FILE), paced: every
-- connection waits BENCH_DELAY_MS (exponentially distributed around that mean) before each request, so the
-- offered rate is about connections / (delay + latency).
local common = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local prefix, n, ids, i, even = nil, 0, nil, 0, false
local delay_ms = tonumber(os.getenv("BENCH_DELAY_MS") or "0")
local get_headers = { ["Authorization"] = common.auth }

function init(args)
  local t = tid or 1
  prefix = common.run .. "-" .. t .. "-"
  ids = common.read_lines(os.getenv("BENCH_IDS_FILE"))
  i = math.floor((t - 1) * #ids / (nthreads or 1))
  math.randomseed(os.time() + t * 104729)
end

function delay()
  if delay_ms <= 0 then return 0 end
  return math.floor(-math.log(1 - math.random()) * delay_ms)
end

function request()
  even = not even
  if even then
    n = n + 1
    return common.create_request("k" .. prefix .. n, "b" .. prefix .. n)
  end
  i = i % #ids + 1
  return wrk.format("GET", "/v1/payments/" .. ids[i], get_headers)
end
