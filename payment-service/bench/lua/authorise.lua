-- Scenario "authorise": every request a new hold (captureMethod manual), new Idempotency-Key and booking id.
local common = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local prefix, n = nil, 0

function init(args)
  prefix = common.run .. "-" .. tostring(tid or 0) .. "-"
end

function request()
  n = n + 1
  local id = prefix .. n
  return wrk.format("POST", "/v1/payments", {
    ["Authorization"] = common.auth,
    ["Idempotency-Key"] = "k" .. id,
    ["Content-Type"] = "application/json",
  }, '{"bookingId":"b' .. id .. '","amount":12000,"currency":"JPY","paymentMethod":"pm_card_ok",'
     .. '"captureMethod":"manual"}')
end
