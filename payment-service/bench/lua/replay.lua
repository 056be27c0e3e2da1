-- Scenario "replay": the same key and the same body as a stored, finished request. BENCH_REPLAY_FILE lists the
-- stored keys (k<run>-<n>, created by seed.lua with booking b<run>-<n>); each thread starts at another offset.
local common = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local keys, i = nil, 0

function init(args)
  keys = common.read_lines(os.getenv("BENCH_REPLAY_FILE"))
  i = math.floor(((tid or 1) - 1) * #keys / (nthreads or 1))
end

function request()
  i = i % #keys + 1
  local key = keys[i]
  return common.create_request(key, "b" .. key:sub(2))
end
