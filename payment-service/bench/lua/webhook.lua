-- Scenario "webhook": signed payment.succeeded webhooks for PROCESSING payments, pre-signed by WebhookSigner.java
-- into BENCH_WEBHOOKS_FILE. Thread t of n sends lines t, t+n, t+2n, ... so no webhook id is sent twice unless the
-- list runs out (then it wraps around and the service answers "duplicate"; the shell reports that).
local common = dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local lines, i, step = nil, 0, 1

function init(args)
  lines = common.read_lines(os.getenv("BENCH_WEBHOOKS_FILE"))
  step = nthreads or 1
  i = (tid or 1) - step
end

function request()
  i = i + step
  if i > #lines then i = (tid or 1) end
  return common.webhook_request(lines[i])
end
