-- Scenario "get": GET /v1/payments/{id} over a list of existing payment ids (BENCH_IDS_FILE, one per line).
local common = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local ids, i = nil, 0
local headers = { ["Authorization"] = common.auth }

function init(args)
  ids = common.read_lines(os.getenv("BENCH_IDS_FILE"))
  i = math.floor(((tid or 1) - 1) * #ids / (nthreads or 1))
end

function request()
  i = i % #ids + 1
  return wrk.format("GET", "/v1/payments/" .. ids[i], headers)
end
