#!/usr/bin/env bash
# The benchmark against the PostgreSQL limit: one command, about 10 minutes on 2 cores.
#
#   payment-service/bench/run.sh                 # full run, writes docs/performance.md
#   BENCH_QUICK=1 payment-service/bench/run.sh   # a try-out in about 2 minutes (figures not meaningful)
#
# Starts the service as a user would (java -jar, embedded PostgreSQL in a fresh directory, sandbox gateway with
# webhooks off), warms it up, and drives it over loopback HTTP with wrk: create, replay, get, webhook and a mixed
# run, each at 1, 8, 32 and 64 clients for a fixed time. In the same run it measures the limits: pgbench running
# the same SQL as one create against the same PostgreSQL, and a no-op WebFlux endpoint on the same JVM. Prints a
# table and writes (or replaces) the section labelled BENCH_LABEL in docs/performance.md.
#
# Environment (all optional):
#   BENCH_SECONDS     seconds per measurement (default 15; 28 measurements)
#   BENCH_CLIENTS     client counts (default "1 8 32 64")
#   BENCH_WARMUP      warm-up seconds, creates at 8 clients, not recorded (default 20)
#   BENCH_REPLAY_KEYS stored keys the replay scenario cycles through (default 2000)
#   BENCH_LABEL       the section's label in docs/performance.md (default "current code")
#   BENCH_QUICK=1     BENCH_SECONDS=3, BENCH_CLIENTS="1 8", BENCH_WARMUP=5, BENCH_REPLAY_KEYS=200, and the doc
#                     section is labelled "quick try-out" unless BENCH_LABEL is set
#   BENCH_NO_DOC=1    do not touch docs/performance.md
#   BENCH_JAVA_OPTS   JVM options for the service (default none); BENCH_APP_ARGS extra --key=value arguments
#   BENCH_OUT         where raw outputs go (default payment-service/bench/results/<time>)
#   BENCH_REBUILD=1   rebuild the jar even if it exists
#   BENCH_QUIESCE_MAX seconds to wait between measurements for the outbox relay and the sandbox settlement to
#                     catch up (default 45)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [[ "${BENCH_QUICK:-0}" == 1 ]]; then
  : "${BENCH_SECONDS:=3}" "${BENCH_CLIENTS:=1 8}" "${BENCH_WARMUP:=5}" "${BENCH_REPLAY_KEYS:=200}"
  : "${BENCH_LABEL:=quick try-out}"
fi
SECS="${BENCH_SECONDS:-15}"
read -r -a CLIENTS <<<"${BENCH_CLIENTS:-1 8 32 64}"
WARMUP="${BENCH_WARMUP:-20}"
REPLAY_KEYS="${BENCH_REPLAY_KEYS:-2000}"
LABEL="${BENCH_LABEL:-current code}"
STARTED_AT=$SECONDS
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"

ensure_tools

OUT="${BENCH_OUT:-$BENCH_DIR/results/$(date -u +%Y%m%dT%H%M%SZ)}"
RAW="$OUT/raw"
RESULTS="$OUT/results.tsv"
mkdir -p "$RAW"
: >"$RESULTS"
WORK="$(mktemp -d /tmp/payorch-bench.XXXXXX)"
cleanup() {
  local rc=$?
  stop_service
  [[ -f "$WORK/service.log" ]] && cp "$WORK/service.log" "$OUT/service.log" 2>/dev/null || true
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The client count the targets are judged at: 32, or the largest one run below it (quick mode).
TARGET_C=""
for c in "${CLIENTS[@]}"; do (( c <= 32 )) && TARGET_C=$c; done
: "${TARGET_C:=${CLIENTS[0]}}"

start_service "$WORK"
prepare_pgbench_db

# --- warm-up, which also stores the keys the replay scenario sends again -------------------------------------------
SEED_RUN="seed"
seeded=0
for round in 1 2 3 4 5; do
  log "warm-up round $round: creates at 8 clients for ${WARMUP} s (not recorded)"
  W_THREADS=1 W_RUN="$SEED_RUN$round" measure_wrk warmup 8 "$WARMUP" seed.lua 0
  seeded="$(sql "select count(*) from idempotency_keys where idempotency_key like 'k$SEED_RUN%'
                 and recovery_point = 'FINISHED'")"
  (( seeded >= REPLAY_KEYS )) && break
done
(( seeded >= REPLAY_KEYS )) || die "only $seeded of $REPLAY_KEYS replay keys stored after the warm-up"
export BENCH_REPLAY_FILE="$WORK/replay-keys.txt"
sql "select idempotency_key from idempotency_keys where idempotency_key like 'k$SEED_RUN%'
     and recovery_point = 'FINISHED' order by created_at limit $REPLAY_KEYS" >"$BENCH_REPLAY_FILE"
quiesce

# --- the framework's ceiling -----------------------------------------------------------------------------------------
for c in "${CLIENTS[@]}"; do
  measure_wrk noop "$c" "$SECS" noop.lua
done

# --- create, each next to its pgbench-equivalent, so the ratio compares neighbours in time ------------------------
declare -A CREATE_RPS=()
for c in "${CLIENTS[@]}"; do
  measure_pgbench "$c" "$SECS"
  quiesce
  measure_wrk create "$c" "$SECS" create.lua
  CREATE_RPS[$c]="$W_RPS"
  quiesce
done

# --- replay of stored keys ------------------------------------------------------------------------------------------
for c in "${CLIENTS[@]}"; do
  measure_wrk replay "$c" "$SECS" replay.lua
  quiesce
done

# --- GET of existing payments ---------------------------------------------------------------------------------------
export BENCH_IDS_FILE="$WORK/payment-ids.txt"
sql "select id from payments where merchant_id = 'demo' order by random() limit 5000" >"$BENCH_IDS_FILE"
for c in "${CLIENTS[@]}"; do
  measure_wrk get "$c" "$SECS" get.lua
  quiesce
done

# --- holds: authorise (create with captureMethod manual), then capture them (when the service knows holds) ----------
HOLDS=0
probe="$(curl -s -o /dev/null -w '%{http_code}' -X POST "$BASE_URL/v1/payments" -H "Authorization: Bearer sk_test_demo" \
  -H "Idempotency-Key: holds-probe-$$" -H 'Content-Type: application/json' \
  -d '{"bookingId":"holds-probe-'$$'","amount":12000,"currency":"JPY","paymentMethod":"pm_card_ok","captureMethod":"manual"}')"
[[ "$probe" == 201 ]] && HOLDS=1
if (( HOLDS == 1 )); then
  for c in "${CLIENTS[@]}"; do
    measure_wrk authorise "$c" "$SECS" authorise.lua
    quiesce
  done
  # The sandbox's own webhooks are off in the benchmark: the holds become AUTHORIZED by signed payment.authorized
  # webhooks sent here (not recorded), as the webhook scenario's are.
  sql "select id, amount, currency,
         coalesce((select c.id from sandbox_charges c where c.payment_id = p.id order by c.attempt desc limit 1), 'ch_none')
       from payments p where status = 'PROCESSING' and capture_method = 'manual' and merchant_id = 'demo'" \
    | tr '|' '\t' >"$WORK/hold-payments.tsv"
  java "$BENCH_DIR/WebhookSigner.java" "$WEBHOOK_SECRET" "$WORK/hold-payments.tsv" "$WORK/authorisations.tsv" \
    "msg_bench_authorised" payment.authorized 2>/dev/null
  holds="$(wc -l <"$WORK/authorisations.tsv")"
  log "authorising $holds holds by webhook (not recorded)"
  BENCH_WEBHOOKS_FILE="$WORK/authorisations.tsv" W_RUN="auth" \
    measure_wrk authorisations 32 "$(( holds / 100 + 3 ))" webhook.lua 0
  quiesce
  export BENCH_IDS_FILE="$WORK/authorised-ids.txt"
  for c in "${CLIENTS[@]}"; do
    sql "select id from payments where status = 'AUTHORIZED' and merchant_id = 'demo' order by random()" \
      >"$BENCH_IDS_FILE"
    measure_wrk capture "$c" "$SECS" capture.lua
    quiesce
  done
else
  log "the service refuses captureMethod (answered $probe): no authorise and capture rows"
fi

# --- lists of signed webhooks (payment.succeeded for fresh PROCESSING payments), for mixed and webhook ---------
TOPUPS=0
# prepare_webhooks <count> <name>: signs a webhook for every PROCESSING payment that never had one, into
# BENCH_WEBHOOKS_FILE; when there are fewer than <count>, it first creates more payments (unrecorded). A list that
# still runs out wraps around, and the run reports the duplicates.
prepare_webhooks() {
  local need="$1" name="$2" avail rate secs
  avail="$(sql "select count(*) from payments p where status = 'PROCESSING' and merchant_id = 'demo'
                and not exists (select 1 from webhook_receipts r where r.payment_id = p.id)")"
  if (( avail < need )); then
    rate="$(awk -v r="${CREATE_RPS[$TARGET_C]:-50}" 'BEGIN{print (r < 20 ? 20 : r)}')"
    secs="$(awk -v n=$(( need - avail )) -v r="$rate" 'BEGIN{s = int(n / r * 1.2) + 2; print (s > 180 ? 180 : s)}')"
    TOPUPS=$(( TOPUPS + 1 ))
    log "only $avail PROCESSING payments for $need webhooks: creating more for ${secs} s (not recorded)"
    W_RUN="tu$TOPUPS" measure_wrk topup 32 "$secs" create.lua 0
    quiesce
  fi
  sql "select id, amount, currency,
         coalesce((select c.id from sandbox_charges c where c.payment_id = p.id order by c.attempt desc limit 1), 'ch_none')
       from payments p where status = 'PROCESSING' and merchant_id = 'demo'
       and not exists (select 1 from webhook_receipts r where r.payment_id = p.id)
       order by created_at desc" | tr '|' '\t' >"$WORK/webhook-payments.tsv"
  java "$BENCH_DIR/WebhookSigner.java" "$WEBHOOK_SECRET" "$WORK/webhook-payments.tsv" "$WORK/webhooks.tsv" \
    "msg_bench_$name" 2>/dev/null
  export BENCH_WEBHOOKS_FILE="$WORK/webhooks.tsv"
}

# --- mixed: 70 % create, 20 % replay, 10 % webhook --------------------------------------------------------------
for c in "${CLIENTS[@]}"; do
  need="$(awk -v a="${CREATE_RPS[$c]:-50}" -v s="$SECS" 'BEGIN{print int(a * 2 * 0.1 * 1.5 * s) + 200}')"
  prepare_webhooks "$need" "mixed$c"
  measure_wrk mixed "$c" "$SECS" mixed.lua
  quiesce
done

# --- webhook: last, because the outbox relay takes long to catch up after it ---------------------------------------
last_webhook_rps=0
for c in "${CLIENTS[@]}"; do
  need="$(awk -v a="${CREATE_RPS[$c]:-50}" -v b="$last_webhook_rps" -v s="$SECS" \
    'BEGIN{r = (b * 1.5 > a * 3 ? b * 1.5 : a * 3); print int(r * 1.1 * s) + 300}')"
  prepare_webhooks "$need" "c$c"
  measure_wrk webhook "$c" "$SECS" webhook.lua
  last_webhook_rps="$W_RPS"
  quiesce
done

# --- memory after the run -------------------------------------------------------------------------------------------
HEAP_END="$(heap_used_mib)"
HEAP_END_GC="$(heap_after_gc_mib)"
RSS_END="$(rss_mib)"
SVC_CPU_TOTAL="$(awk -v t="$(proc_ticks "$SVC_PID")" -v hz="$CLK_TCK" 'BEGIN{printf "%.0f", t / hz}')"
WALL=$(( SECONDS - STARTED_AT ))
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"
log "heap in use $HEAP_END MiB, after a full GC $HEAP_END_GC MiB, RSS $RSS_END MiB; wall time ${WALL} s"

# --- report -----------------------------------------------------------------------------------------------------------
val() { # val <scenario> <clients> <column number>
  awk -F'\t' -v s="$1" -v c="$2" -v k="$3" '$1 == s && $2 == c {print $k; exit}' "$RESULTS"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b + 0 > 0) printf "%.2f", a / b; else print "n/a" }'; }
verdict() { awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN{
  if (v == "n/a" || v == "") { print "not measured"; exit }
  ok = (op == ">=") ? (v + 0 >= t + 0) : (op == "<") ? (v + 0 < t + 0) : (v + 0 == t + 0)
  print (ok ? "**met**" : "**not met**") }'; }

SCENARIOS=(create replay get authorise capture webhook mixed pgbench noop)
results_table() { # markdown
  echo "| scenario | clients | requests | req/s | p50 ms | p99 ms | max ms | errors | service CPU s / 1000 req | PostgreSQL CPU s / 1000 req | host CPU busy % | load tool CPU % | heap MiB | RSS MiB |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  local s
  for s in "${SCENARIOS[@]}"; do
    awk -F'\t' -v s="$s" '$1 == s {
      printf "| %s | %s | %s | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
        $1, $2, $4, $5, $6, $7, $8, ($9 == 0 ? "0" : $9 " (" $10 ")"), $11, $12, $13, $14, $15, $16 }' "$RESULTS"
  done
}
notes_table() {
  echo "| scenario | clients | what the database saw |"
  echo "|---|---:|---|"
  awk -F'\t' '$1 != "noop" && $1 != "pgbench" {printf "| %s | %s | %s |\n", $1, $2, $17}' "$RESULTS"
}

C32="$TARGET_C"
R_CREATE_PG="$(ratio "$(val create "$C32" 5)" "$(val pgbench "$C32" 5)")"
R_REPLAY_CREATE="$(ratio "$(val replay "$C32" 5)" "$(val create "$C32" 5)")"
TOTAL_ERRORS="$(awk -F'\t' '{e += ($9 < 0 ? 1 : $9)} END {print e + 0}' "$RESULTS")"

ratios_table() {
  echo "| measure | clients | measured | target | verdict |"
  echo "|---|---:|---:|---|---|"
  echo "| create ÷ pgbench-equivalent (throughput) | $C32 | $R_CREATE_PG | >= 0.50 | $(verdict "$R_CREATE_PG" ">=" 0.5) |"
  echo "| replay ÷ create (throughput) | $C32 | $R_REPLAY_CREATE | >= 3.00 | $(verdict "$R_REPLAY_CREATE" ">=" 3) |"
  local s p
  for s in create replay get authorise capture webhook mixed; do
    p="$(val "$s" "$C32" 7)"
    echo "| p99 latency, $s (ms) | $C32 | ${p:-n/a} | < 50 | $(verdict "${p:-n/a}" "<" 50) |"
  done
  echo "| errors, all scenarios and limits | all | $TOTAL_ERRORS | 0 | $(verdict "$TOTAL_ERRORS" "==" 0) |"
  echo "| heap flat across a 10-minute soak at 50 % of peak | - | see the soak section | flat | measured by \`soak.sh\` |"
}
ratios_all_clients() {
  echo "| clients | create ÷ pgbench | replay ÷ create | create ÷ noop | pgbench ÷ noop |"
  echo "|---:|---:|---:|---:|---:|"
  local c
  for c in "${CLIENTS[@]}"; do
    echo "| $c | $(ratio "$(val create "$c" 5)" "$(val pgbench "$c" 5)") | $(ratio "$(val replay "$c" 5)" "$(val create "$c" 5)") | $(ratio "$(val create "$c" 5)" "$(val noop "$c" 5)") | $(ratio "$(val pgbench "$c" 5)" "$(val noop "$c" 5)") |"
  done
}

# The console table.
echo
printf '%-8s %7s %9s %9s %8s %8s %8s %7s %9s %9s\n' scenario clients requests 'req/s' 'p50 ms' 'p99 ms' 'max ms' errors 'cpu/1000' 'pg/1000'
for s in "${SCENARIOS[@]}"; do
  awk -F'\t' -v s="$s" '$1 == s {printf "%-8s %7s %9s %9.1f %8s %8s %8s %7s %9s %9s\n", $1, $2, $4, $5, $6, $7, $8, $9, $11, $12}' "$RESULTS"
done
echo
echo "create ÷ pgbench-equivalent at $C32 clients: $R_CREATE_PG (target >= 0.50)"
echo "replay ÷ create at $C32 clients:             $R_REPLAY_CREATE (target >= 3.00)"
echo "errors in all measurements:                  $TOTAL_ERRORS (target 0)"
echo "heap in use after the run $HEAP_END MiB, after a full GC $HEAP_END_GC MiB; RSS $RSS_END MiB"
echo "wall time ${WALL} s; raw outputs in $OUT"

if [[ "${BENCH_NO_DOC:-0}" != 1 ]]; then
  SECTION="$WORK/section.md"
  {
    echo "<!-- bench:begin key=run:$(slug "$LABEL") -->"
    echo "## Benchmark: $LABEL"
    echo
    echo "Measured by \`payment-service/bench/run.sh\` on $(date -u '+%Y-%m-%d'), ${SECS} s per measurement, clients ${CLIENTS[*]}, warm-up ${WARMUP} s (creates at 8 clients, not recorded), replay over ${REPLAY_KEYS} stored keys; the whole run took ${WALL} s."
    echo
    echo "### Machine"
    echo
    machine_table
    echo "| load average after the run | $LOAD_AFTER |"
    echo
    echo "### Targets (measured in this run, at $C32 clients)"
    echo
    ratios_table
    echo
    echo "### Results"
    echo
    echo "Latencies are wrk's (closed loop: each client sends its next request when the previous answer arrived). \`pgbench\` is the pgbench-equivalent of one create (one pgbench transaction = one create, \`-M prepared\`); \`noop\` is \`GET /bench/noop\` on the same JVM. CPU per 1000 requests: the service's JVM (utime+stime from /proc) and all PostgreSQL processes; host CPU busy is the whole machine (${CLK_TCK} ticks/s, $(nproc) cores), load tool CPU is wrk's or pgbench's own share of it (they run on the same cores). Heap (in use, without a forced GC) and RSS of the service right after each measurement."
    echo
    results_table
    echo
    echo "### Ratios at every client count"
    echo
    ratios_all_clients
    echo
    echo "### Memory after the run"
    echo
    echo "| heap in use | heap after a full GC | RSS | service CPU time, whole run |"
    echo "|---:|---:|---:|---:|"
    echo "| $HEAP_END MiB | $HEAP_END_GC MiB | $RSS_END MiB | $SVC_CPU_TOTAL s |"
    echo
    echo "### What the database saw"
    echo
    echo "Rows counted before and after each measurement: payments created (create: one per request; replay and get: none), webhook receipts (webhook: one per applied webhook; a request without a receipt was a duplicate), and the background work left when the measurement ended (events the outbox relay had not dispatched yet, sandbox charges not yet settled). Before the next measurement the script waits until that backlog is gone (at most ${BENCH_QUIESCE_MAX:-45} s); a measurement that still started with a backlog says so. Webhook lists ran short and had to be topped up with extra creates $TOPUPS time(s)."
    echo
    notes_table
    echo "<!-- bench:end -->"
  } >"$SECTION"
  merge_doc run "$LABEL" "$SECTION"
  log "wrote $DOC (section \"$LABEL\")"
fi
