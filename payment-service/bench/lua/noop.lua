-- The framework's ceiling: GET /bench/noop (no auth, no database) on the same JVM.
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local req

function init(args)
  req = wrk.format("GET", "/bench/noop")
end

function request()
  return req
end
