-- Scenario "create": every request a new Idempotency-Key and a new booking id.
local common = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local prefix, n = nil, 0

function init(args)
  prefix = common.run .. "-" .. tostring(tid or 0) .. "-"
end

function request()
  n = n + 1
  local id = prefix .. n
  return common.create_request("k" .. id, "b" .. id)
end
