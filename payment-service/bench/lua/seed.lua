-- Warm-up and replay seed: creates with keys k<BENCH_RUN>-<i> (one thread, i = 1, 2, ...); run.sh then lists
-- BENCH_REPLAY_KEYS finished ones for the replay and mixed scenarios (the body follows from the key).
-- Run with -t1 only: the counter is per thread.
local common = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local n = 0

function request()
  n = n + 1
  return common.create_request("k" .. common.run .. "-" .. n, "b" .. common.run .. "-" .. n)
end
