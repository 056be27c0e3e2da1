-- Scenario "capture": POST /v1/payments/{id}/capture of AUTHORIZED holds (BENCH_IDS_FILE, one id per line), each
-- once, with a new Idempotency-Key: thread t of n takes ids t, t+n, ... (a list that runs out wraps around, and the
-- second capture of a payment is a 409 the run reports as errors).
local common = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local ids, i, step, n = nil, 0, 1, 0

function init(args)
  ids = common.read_lines(os.getenv("BENCH_IDS_FILE"))
  step = nthreads or 1
  i = (tid or 1) - step
end

function request()
  i = i + step
  if i > #ids then i = (tid or 1) end
  n = n + 1
  return wrk.format("POST", "/v1/payments/" .. ids[i] .. "/capture", {
    ["Authorization"] = common.auth,
    ["Idempotency-Key"] = "cap-" .. common.run .. "-" .. tostring(tid or 0) .. "-" .. n,
    ["Content-Type"] = "application/json",
  }, "{}")
end
