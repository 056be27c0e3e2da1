-- Scenario "mixed": per request 70 % create (new key, new booking), 20 % replay of a seeded key, 10 % webhook
-- (pre-signed, as in webhook.lua). Replays cycle through BENCH_REPLAY_FILE as in replay.lua.
local common = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local prefix, n, r, keys, hooks, h, step = nil, 0, 0, nil, nil, 0, 1

function init(args)
  local t = tid or 1
  prefix = common.run .. "-" .. t .. "-"
  step = nthreads or 1
  hooks = common.read_lines(os.getenv("BENCH_WEBHOOKS_FILE"))
  h = t - step
  keys = common.read_lines(os.getenv("BENCH_REPLAY_FILE"))
  r = math.floor((t - 1) * #keys / step)
  math.randomseed(os.time() + t * 7919)
end

function request()
  local x = math.random()
  if x < 0.7 then
    n = n + 1
    return common.create_request("k" .. prefix .. n, "b" .. prefix .. n)
  elseif x < 0.9 then
    r = r % #keys + 1
    return common.create_request(keys[r], "b" .. keys[r]:sub(2))
  else
    h = h + step
    if h > #hooks then h = tid or 1 end
    return common.webhook_request(hooks[h])
  end
end
