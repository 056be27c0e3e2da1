#!/usr/bin/env bash
# Latency at a given load, event-delivery lag, backlog and drain, JIT warm-up and CDS: one command, about 20 minutes
# on 2 cores with the defaults.
#
#   payment-service/bench/open-model.sh                  # full run, writes its sections of docs/performance.md
#   BENCH_QUICK=1 payment-service/bench/open-model.sh    # a try-out in about 8 minutes (figures not meaningful)
#
# In order, on one fresh service (java -jar, embedded PostgreSQL in a fresh directory, webhooks off, as run.sh):
#  1. warm-up curve: creates at 32 clients (wrk, closed loop) from the moment the service is healthy, creates/s per
#     10 s window counted in the database; start-up time and time to 90 % of the curve's own final rate;
#  2. peak: creates and the mix (70 % create, 20 % replay, 10 % webhook, as lua/mixed.lua) at 32 clients, closed
#     loop, now warm; then the sustainable peak of each: open-model probes at falling fractions of the closed-loop
#     peak (BENCH_PROBE_FRACTIONS) until one is sustained (achieved rate within 2 % of the target, no error, outbox
#     backlog bounded and drained). A closed-loop peak over 20 s defers the background work a request leaves, so it
#     overstates what the service sustains; the sustainable peak is what the fractions are taken of
#     (only with BENCH_PEAK_REFERENCE=sustainable; the default is still the closed-loop peak);
#  3. open model: OpenLoad.java sends creates, then the mix, at a constant arrival rate of 25 %, 50 % and 80 % of
#     that peak (latency from the intended send time, so a stall is not hidden), while the outbox backlog, the
#     sandbox charges waiting for settlement and the service's CPU are sampled every second into a CSV; after each
#     run, the event-delivery lag (events.dispatched_at - events.created_at) of the events created during it;
#  4. burst and drain: the mix at 64 clients unpaced for BENCH_BURST_SECONDS, then the time until the outbox backlog
#     (and the charges) are back to zero, sampled every second;
#  5. pgbench: bench/pgbench/create.sql (and create-minimal.sql when it exists) at 8 and 32 clients; and create.sql
#     alone at the creates' open-model rates (pgbench -R, latency from the scheduled start): the floor the service's
#     create latency at that rate stands on;
#  6. CDS: the jar extracted (java -Djarmode=tools -jar ... extract), a training run writing a CDS archive
#     (-XX:ArchiveClassesAtExit, -Dspring.context.exit=onRefresh), start-up of the extracted jar without and with
#     the archive, and the warm-up curve again with it.
# Before every measurement the script waits for the backlog to drain and for the service's own CPU to go idle
# (lib.sh: quiesce, wait_service_idle), and records the 1-minute load average and the number of other java
# processes on the machine: figures from a shared machine say so.
#
# Environment (all optional):
#   BENCH_OPEN_SECONDS   seconds per open-model run (default 60; 6 runs), plus BENCH_OPEN_WARMUP (5) unrecorded
#   BENCH_CURVE_SECONDS  length of each warm-up curve (default 180)
#   BENCH_PEAK_SECONDS   seconds per peak measurement (default 20)
#   BENCH_PEAK_REFERENCE closed (default) or sustainable: which peak the fractions are taken of (sustainable: not
#                        yet run end to end)
#   BENCH_PROBE_FRACTIONS fractions of the closed-loop peak probed for the sustainable one (default "1 0.9 0.8 0.7 0.6 0.5 0.4")
#   BENCH_PROBE_SECONDS  seconds per probe (default 30)
#   BENCH_FRACTIONS      fractions of the peak (default "0.25 0.5 0.8")
#   BENCH_BURST_SECONDS  seconds of the burst (default 15); BENCH_DRAIN_MAX: longest wait for the drain (180)
#   BENCH_PGBENCH_SECONDS seconds per pgbench measurement (default 20)
#   BENCH_CDS=0          skip step 6
#   BENCH_LABEL          label of the doc sections (default "current code"); BENCH_NO_DOC=1: leave the doc alone
#   BENCH_QUICK=1        10 s runs, 40 s curves, 5 s peaks and bursts; label "quick try-out" unless set
#   BENCH_OUT, BENCH_REBUILD, BENCH_JAVA_OPTS, BENCH_APP_ARGS, BENCH_IDLE_CPU, BENCH_IDLE_MAX: as in run.sh/lib.sh
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [[ "${BENCH_QUICK:-0}" == 1 ]]; then
  : "${BENCH_OPEN_SECONDS:=10}" "${BENCH_CURVE_SECONDS:=40}" "${BENCH_PEAK_SECONDS:=5}" "${BENCH_BURST_SECONDS:=5}"
  : "${BENCH_PGBENCH_SECONDS:=5}" "${BENCH_DRAIN_MAX:=60}" "${BENCH_LABEL:=quick try-out}"
fi
OPEN_SECS="${BENCH_OPEN_SECONDS:-60}"
OPEN_WARMUP="${BENCH_OPEN_WARMUP:-5}"
CURVE_SECS="${BENCH_CURVE_SECONDS:-180}"
PEAK_SECS="${BENCH_PEAK_SECONDS:-20}"
PEAK_REFERENCE="${BENCH_PEAK_REFERENCE:-closed}"
read -r -a PROBE_FRACTIONS <<<"${BENCH_PROBE_FRACTIONS:-1 0.9 0.8 0.7 0.6 0.5 0.4}"
PROBE_SECS="${BENCH_PROBE_SECONDS:-30}"
read -r -a FRACTIONS <<<"${BENCH_FRACTIONS:-0.25 0.5 0.8}"
BURST_SECS="${BENCH_BURST_SECONDS:-15}"
DRAIN_MAX="${BENCH_DRAIN_MAX:-180}"
PGB_SECS="${BENCH_PGBENCH_SECONDS:-20}"
LABEL="${BENCH_LABEL:-current code}"
STARTED_AT=$SECONDS
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
FAT_JAR="$JAR"

ensure_tools

OUT="${BENCH_OUT:-$BENCH_DIR/results/open-$(date -u +%Y%m%dT%H%M%SZ)}"
RAW="$OUT/raw"
RESULTS="$OUT/results.tsv"       # lib.sh's measure_wrk / measure_pgbench lines (peaks, pgbench)
OPEN="$OUT/open.tsv"             # one line per open-model run
PROBES="$OUT/probes.tsv"         # one line per sustainable-peak probe (same columns)
mkdir -p "$RAW"
: >"$RESULTS"
printf 'scenario\tfraction\ttarget_rps\tachieved_rps\tp50\tp90\tp99\tp999\tmax\tservice_p99\terrors\terror_detail\tbacklog_max\tbacklog_end\tbacklog_slope\tcharges_max\tdrain_s\tlag_n\tlag_p50\tlag_p99\tlag_max\tsvc_cpu_pct\tload1\tother_java\tidle_cpu_before\tmax_send_behind\tgc_count\tgc_ms\tgc_max_ms\n' >"$OPEN"
head -1 "$OPEN" >"$PROBES"
WORK="$(mktemp -d /tmp/payorch-open.XXXXXX)"
SAMPLER_PID=""
cleanup() {
  local rc=$?
  [[ -n "$SAMPLER_PID" ]] && kill "$SAMPLER_PID" 2>/dev/null || true
  stop_service
  local d
  for d in fat extracted cds; do
    [[ -f "$WORK/$d/service.log" ]] && cp "$WORK/$d/service.log" "$OUT/service-$d.log" 2>/dev/null || true
  done
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "compiling OpenLoad.java"
mkdir -p "$WORK/classes"
javac -d "$WORK/classes" "$BENCH_DIR/OpenLoad.java" || die "javac OpenLoad.java failed"
# The generator shares the 2 cores with the service: a small heap, serial GC, C1 only.
LOADGEN_JAVA=(java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$WORK/classes" OpenLoad)

now_ms() { date +%s%3N; }
db_now() { sql "select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')"; }

# --- start-up and the warm-up curve ----------------------------------------------------------------------------------

# timed_start <name>: starts the service (start_service), sets START_WALL_S (launch to /actuator/health 200, as a
# load balancer sees it) and START_LOG_S (Spring's "Started ... in X seconds").
timed_start() {
  local t0 t1
  mkdir -p "$WORK/$1"
  t0="$(now_ms)"
  start_service "$WORK/$1"
  t1="$(now_ms)"
  START_WALL_S="$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", (b - a) / 1000}')"
  START_LOG_S="$(grep -o 'Started [A-Za-z]* in [0-9.]* seconds' "$WORK/$1/service.log" | head -1 | awk '{print $4}')"
  : "${START_LOG_S:=?}"
  log "$1: healthy ${START_WALL_S} s after launch (Spring: started in ${START_LOG_S} s)"
}

# warmup_curve <name>: creates at 32 clients for CURVE_SECS right after the start, counted per 10 s window in the
# database. Writes $OUT/curve-<name>.csv; sets CURVE_FINAL (median of the last 6 windows, or of all after the first
# half when there are fewer), CURVE_T90 (seconds of load until the first window at >= 90 % of CURVE_FINAL; the
# window's end) and CURVE_FIRST (the first window's rate). Keys are k<name>-<n> (seed.lua), kept for the replays.
warmup_curve() {
  local name="$1" csv="$OUT/curve-$1.csv" ctx
  ctx="$(machine_context)"
  echo "window_end_s,creates,creates_per_s,service_cpu_pct,load1" >"$csv"
  W_THREADS=1 W_RUN="$name" measure_wrk "curve-$name" 32 "$CURVE_SECS" seed.lua 0 &
  local wpid=$! began t_prev n_prev j_prev elapsed=0 n t j now
  began="$(now_ms)"; t_prev="$began"
  n_prev="$(sql "select count(*) from payments")"; j_prev="$(proc_ticks "$SVC_PID")"
  while (( elapsed + 10 <= CURVE_SECS )); do
    sleep "$(awk -v b="$began" -v e=$(( elapsed + 10 )) -v now="$(now_ms)" 'BEGIN{s = (b + e * 1000 - now) / 1000; print (s > 0 ? s : 0)}')"
    elapsed=$(( elapsed + 10 ))
    now="$(now_ms)"; n="$(sql "select count(*) from payments")"; j="$(proc_ticks "$SVC_PID")"
    awk -v e="$elapsed" -v dn=$(( n - n_prev )) -v dt=$(( now - t_prev )) -v dj=$(( j - j_prev )) -v hz="$CLK_TCK" \
      -v l="$(cut -d' ' -f1 /proc/loadavg)" \
      'BEGIN{printf "%d,%d,%.1f,%.0f,%s\n", e, dn, dn / (dt / 1000), 100 * dj / hz / (dt / 1000), l}' >>"$csv"
    t_prev="$now"; n_prev="$n"; j_prev="$j"
  done
  wait "$wpid" || true
  read -r CURVE_FINAL CURVE_T90 CURVE_FIRST <<<"$(awk -F, 'NR > 1 {r[++k] = $3; e[k] = $1} END {
    from = (k > 6) ? k - 5 : int(k / 2) + 1; m = 0
    for (i = from; i <= k; i++) v[++m] = r[i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    med = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
    t90 = "never"; for (i = 1; i <= k; i++) if (r[i] >= 0.9 * med) { t90 = e[i]; break }
    printf "%.1f %s %.1f", med, t90, r[1] }' "$csv")"
  CURVE_CTX="$ctx"
  log "warm-up curve $name: first 10 s ${CURVE_FIRST}/s, final ${CURVE_FINAL}/s, 90 % reached after ${CURVE_T90} s of load"
}

# t90_against <csv> <reference rate>: seconds until the first window at >= 90 % of the reference.
t90_against() {
  awk -F, -v ref="$2" 'NR > 1 && $3 >= 0.9 * ref {print $1; found = 1; exit} END {if (!found) print "never"}' "$1"
}

timed_start fat
FAT_START_WALL="$START_WALL_S"; FAT_START_LOG="$START_LOG_S"
warmup_curve fat
FAT_FINAL="$CURVE_FINAL"; FAT_T90="$CURVE_T90"; FAT_FIRST="$CURVE_FIRST"; FAT_CTX="$CURVE_CTX"
BENCH_PG_VERSION="$(sql 'show server_version' 2>/dev/null || echo '?')"
quiesce

# --- peaks (closed loop, warm) ----------------------------------------------------------------------------------------
export BENCH_REPLAY_FILE="$WORK/replay-keys.txt"
sql "select idempotency_key from idempotency_keys where idempotency_key like 'kfat-%'
     and recovery_point = 'FINISHED' order by created_at limit 2000" >"$BENCH_REPLAY_FILE"
(( $(wc -l <"$BENCH_REPLAY_FILE") > 0 )) || die "no finished keys from the warm-up curve to replay"

# sign_webhooks <count> <name>: signs a payment.succeeded for up to <count> PROCESSING payments that never had a
# webhook, into BENCH_WEBHOOKS_FILE (the service accepts a signature for 300 s, so sign just before each run).
sign_webhooks() {
  sql "select id, amount, currency,
         coalesce((select c.id from sandbox_charges c where c.payment_id = p.id order by c.attempt desc limit 1), 'ch_none')
       from payments p where status = 'PROCESSING' and merchant_id = 'demo'
       and not exists (select 1 from webhook_receipts r where r.payment_id = p.id)
       order by created_at desc limit $1" | tr '|' '\t' >"$WORK/webhook-payments.tsv"
  (( $(wc -l <"$WORK/webhook-payments.tsv") > 0 )) || die "no PROCESSING payments left to sign webhooks for"
  java "$BENCH_DIR/WebhookSigner.java" "$WEBHOOK_SECRET" "$WORK/webhook-payments.tsv" "$WORK/webhooks.tsv" \
    "msg_open_$2" 2>/dev/null
  export BENCH_WEBHOOKS_FILE="$WORK/webhooks.tsv"
}

PEAK_CTX="$(machine_context)"
measure_wrk peak-create 32 "$PEAK_SECS" create.lua
PEAK_CREATE="$W_RPS"
quiesce
sign_webhooks "$(awk -v s="$PEAK_SECS" 'BEGIN{print int(2000 * s * 0.1 * 1.3) + 200}')" peak
measure_wrk peak-mixed 32 "$PEAK_SECS" mixed.lua
PEAK_MIXED="$W_RPS"
quiesce
log "peak (closed loop, 32 clients): creates ${PEAK_CREATE}/s, mix ${PEAK_MIXED}/s"

# --- the per-second sampler --------------------------------------------------------------------------------------------

# start_sampler <csv>: every second, elapsed s, outbox backlog, parked events, sandbox charges processing, the
# service's CPU (% of one core) and the 1-minute load average. stop_sampler ends it.
start_sampler() {
  local csv="$1"
  echo "elapsed_s,outbox_backlog,parked,charges_processing,service_cpu_pct,load1" >"$csv"
  (
    trap 'exit 0' TERM
    b="$(now_ms)"; t0="$b"; j0="$(proc_ticks "$SVC_PID")"
    while true; do
      sleep 1
      row="$(sql "select (select count(*) from events where dispatched_at is null and parked_at is null),
                         (select count(*) from events where dispatched_at is null and parked_at is not null),
                         (select count(*) from sandbox_charges where status = 'processing')" 2>/dev/null | tr '|' ',')"
      t1="$(now_ms)"; j1="$(proc_ticks "$SVC_PID")"
      [[ -n "$row" ]] && awk -v b="$b" -v t0="$t0" -v t1="$t1" -v dj=$(( j1 - j0 )) -v hz="$CLK_TCK" -v row="$row" \
        -v l="$(cut -d' ' -f1 /proc/loadavg)" \
        'BEGIN{printf "%.1f,%s,%.0f,%s\n", (t1 - b) / 1000, row, 100 * dj / hz / ((t1 - t0) / 1000), l}' >>"$csv"
      t0="$t1"; j0="$j1"
    done
  ) &
  SAMPLER_PID=$!
}
stop_sampler() {
  [[ -n "$SAMPLER_PID" ]] || return 0
  kill "$SAMPLER_PID" 2>/dev/null || true
  wait "$SAMPLER_PID" 2>/dev/null || true
  SAMPLER_PID=""
}

# backlog_summary <csv> <from s> <to s>: "max end slope charges_max" of the outbox backlog between two elapsed
# times; slope = least-squares trend over the second half of that span, events per second (about 0: bounded).
backlog_summary() {
  awk -F, -v a="$2" -v z="$3" 'NR > 1 && $1 >= a && $1 <= z {
      k++; t[k] = $1; v[k] = $2; if ($2 > mx) mx = $2; if ($4 > cm) cm = $4; last = $2 }
    END {
      if (k == 0) { print "0 0 0 0"; exit }
      h = int(k / 2) + 1; n = 0; sx = sy = sxx = sxy = 0
      for (i = h; i <= k; i++) { n++; sx += t[i]; sy += v[i]; sxx += t[i] * t[i]; sxy += t[i] * v[i] }
      d = n * sxx - sx * sx; slope = (n > 1 && d != 0) ? (n * sxy - sx * sy) / d : 0
      printf "%d %d %.1f %d", mx, last, slope, cm }' "$1"
}


# lag <from> <to> (database timestamps): "n p50 p99 max" in ms of dispatched_at - created_at for the events created
# in that span (undispatched ones are counted as not delivered: n counts only delivered events).
lag() {
  sql "select count(*),
         coalesce(round(percentile_cont(0.5) within group (order by extract(epoch from dispatched_at - created_at))::numeric * 1000, 1), 0),
         coalesce(round(percentile_cont(0.99) within group (order by extract(epoch from dispatched_at - created_at))::numeric * 1000, 1), 0),
         coalesce(round(max(extract(epoch from dispatched_at - created_at))::numeric * 1000, 1), 0)
       from events where created_at >= '$1'::timestamp at time zone 'UTC' and created_at < '$2'::timestamp at time zone 'UTC'
         and dispatched_at is not null" | tr '|' ' '
}

# --- open model ----------------------------------------------------------------------------------------------------------
# open_run <scenario> <fraction> <peak>
# open_run <scenario> <fraction> <reference rate> [results file] [tag prefix]: one open-model run at fraction x
# reference, one line appended to the results file (default OPEN).
open_run() {
  local scenario="$1" f="$2" peak="$3" file="${4:-$OPEN}" prefix="${5:-}" rate tag ctx csv t0 t1 line
  rate="$(awk -v p="$peak" -v f="$f" 'BEGIN{printf "%.1f", p * f}')"
  tag="$prefix$scenario-$(awk -v f="$f" 'BEGIN{printf "%d", f * 100}')"
  local extra=()
  if [[ "$scenario" == mixed ]]; then
    sign_webhooks "$(awk -v r="$rate" -v s=$(( OPEN_SECS + OPEN_WARMUP )) 'BEGIN{print int(r * s * 0.1 * 1.3) + 100}')" "$tag"
    extra=(replay="$BENCH_REPLAY_FILE" webhooks="$BENCH_WEBHOOKS_FILE")
  fi
  quiesce
  # A run starts from an empty old generation: a probe that overloaded the service leaves it full of requests that
  # were in flight, and G1's young pauses then take 100-500 ms (seen on 2026-12-02) in the next, unrelated run.
  jcmd "$SVC_PID" GC.run >/dev/null 2>&1 || true
  local idle="$IDLE_CPU_PCT"
  ctx="$(machine_context)"
  local gcn0 gct0
  read -r gcn0 gct0 <<<"$(gc_counts)"
  start_gc_sampler
  csv="$OUT/backlog-$tag.csv"
  log "open model: $scenario at $f of peak = $rate req/s for ${OPEN_SECS} s (+${OPEN_WARMUP} s unrecorded); load1/other java: $ctx"
  local j0 j1 w0 w1
  j0="$(proc_ticks "$SVC_PID")"; w0="$(now_ms)"
  start_sampler "$csv"
  t0="$(db_now)"
  "${LOADGEN_JAVA[@]}" url="$BASE_URL" scenario="$scenario" rate="$rate" seconds="$OPEN_SECS" warmup="$OPEN_WARMUP" \
    run="o$tag-$(date +%s)" apikey="$API_KEY" timeline="$OUT/timeline-$tag.csv" "${extra[@]}" \
    >"$RAW/open-$tag.txt" 2>&1 || true
  t1="$(db_now)"
  j1="$(proc_ticks "$SVC_PID")"; w1="$(now_ms)"
  local gcn1 gct1 gcmax
  read -r gcn1 gct1 <<<"$(gc_counts)"
  gcmax="$(stop_gc_sampler)"
  local run_end
  run_end="$(awk -v a="$w0" -v b="$w1" 'BEGIN{printf "%.1f", (b - a) / 1000}')"
  local drain="-"
  if wait_drained "$DRAIN_MAX"; then
    drain="$(awk -v a="$w1" -v b="$(now_ms)" 'BEGIN{printf "%.0f", (b - a) / 1000}')"
  else
    log "backlog not drained ${DRAIN_MAX} s after $tag"
  fi
  sleep 1
  stop_sampler
  line="$(grep '^OPEN_RESULT' "$RAW/open-$tag.txt" | tail -1 || true)"
  if [[ -z "$line" ]]; then
    log "OpenLoad printed no result for $tag; see $RAW/open-$tag.txt"; tail -5 "$RAW/open-$tag.txt" >&2
    line="OPEN_RESULT errors=-1"
  fi
  local -A r=()
  local kv
  for kv in ${line#OPEN_RESULT }; do r[${kv%%=*}]="${kv#*=}"; done
  local detail="-"
  (( ${r[errors]:-0} != 0 )) && detail="status=${r[err_status]:-?} timeout=${r[err_timeout]:-?} io=${r[err_io]:-?} shed=${r[err_shed]:-?} unanswered=${r[err_unanswered]:-?}"
  read -r bmax bend bslope cmax <<<"$(backlog_summary "$csv" "$OPEN_WARMUP" "$run_end")"
  local cpu
  read -r ln l50 l99 lmax <<<"$(lag "$t0" "$t1")"
  cpu="$(awk -v d=$(( j1 - j0 )) -v hz="$CLK_TCK" -v a="$w0" -v b="$w1" 'BEGIN{printf "%.0f", 100 * d / hz / ((b - a) / 1000)}')"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$scenario" "$f" "$rate" "${r[achieved_rps]:-0}" "${r[p50_ms]:-0}" "${r[p90_ms]:-0}" "${r[p99_ms]:-0}" \
    "${r[p999_ms]:-0}" "${r[max_ms]:-0}" "${r[service_p99_ms]:-0}" "${r[errors]:--1}" "$detail" \
    "$bmax" "$bend" "$bslope" "$cmax" "$drain" "$ln" "$l50" "$l99" "$lmax" "$cpu" ${ctx} "$idle" \
    "${r[max_send_behind_ms]:-0}" \
    "$(( ${gcn1:-0} - ${gcn0:-0} ))" "$(awk -v a="${gct0:-0}" -v b="${gct1:-0}" 'BEGIN{printf "%.0f", b - a}')" \
    "$gcmax" >>"$file"
  log "$(printf '%-7s %4s of peak %7s req/s: p50 %s p90 %s p99 %s max %s ms, errors %s; backlog max %s end %s trend %s/s; lag p50 %s p99 %s ms (%s events)' \
    "$scenario" "$f" "${r[achieved_rps]:-0}" "${r[p50_ms]:-?}" "${r[p90_ms]:-?}" "${r[p99_ms]:-?}" "${r[max_ms]:-?}" \
    "${r[errors]:-?}" "$bmax" "$bend" "$bslope" "$l50" "$l99" "$ln")"
}

# --- the sustainable peak ------------------------------------------------------------------------------------------------
# sustained: whether the last probe line kept up (rate within 2 %, no error, backlog trend <= 1 event/s, drained).
sustained() { tail -1 "$PROBES" | awk -F'\t' '{exit !($4 >= 0.98 * $3 && $11 == 0 && $15 <= 1 && $17 != "-")}'; }
# sustainable_peak <scenario> <closed-loop peak>: prints the highest probed rate that was sustained (0: none).
sustainable_peak() {
  local scenario="$1" closed="$2" f
  for f in "${PROBE_FRACTIONS[@]}"; do
    OPEN_SECS="$PROBE_SECS" open_run "$scenario" "$f" "$closed" "$PROBES" probe- >&2
    if sustained; then tail -1 "$PROBES" | cut -f3; return; fi
  done
  echo 0
}
SUSTAINED_CREATE="-"; SUSTAINED_MIXED="-"
REF_CREATE="$PEAK_CREATE"; REF_MIXED="$PEAK_MIXED"
if [[ "$PEAK_REFERENCE" == sustainable ]]; then
  SUSTAINED_CREATE="$(sustainable_peak create "$PEAK_CREATE")"
  SUSTAINED_MIXED="$(sustainable_peak mixed "$PEAK_MIXED")"
  [[ "$SUSTAINED_CREATE" != 0 ]] && REF_CREATE="$SUSTAINED_CREATE"
  [[ "$SUSTAINED_MIXED" != 0 ]] && REF_MIXED="$SUSTAINED_MIXED"
  log "sustainable peak (open model): creates ${SUSTAINED_CREATE}/s, mix ${SUSTAINED_MIXED}/s (0: no probe was sustained; the closed-loop peak is used)"
fi

for f in "${FRACTIONS[@]}"; do open_run create "$f" "$REF_CREATE"; done
for f in "${FRACTIONS[@]}"; do open_run mixed "$f" "$REF_MIXED"; done

# --- burst and drain ------------------------------------------------------------------------------------------------------
sign_webhooks "$(awk -v s="$BURST_SECS" 'BEGIN{print int(2000 * s * 0.1 * 1.3) + 200}')" burst
quiesce
BURST_CTX="$(machine_context)"
start_sampler "$OUT/backlog-burst.csv"
bw0="$(now_ms)"
measure_wrk burst-mixed 64 "$BURST_SECS" mixed.lua
BURST_RPS="$W_RPS"
BURST_END="$(awk -v a="$bw0" -v b="$(now_ms)" 'BEGIN{printf "%.1f", (b - a) / 1000}')"
BURST_DRAINED=1
bw1="$(now_ms)"
BURST_DRAIN="-"
if wait_drained "$DRAIN_MAX"; then
  BURST_DRAIN="$(awk -v a="$bw1" -v b="$(now_ms)" 'BEGIN{printf "%.0f", (b - a) / 1000}')"
else
  BURST_DRAINED=0
fi
sleep 1
stop_sampler
read -r BURST_BMAX _ _ BURST_CMAX <<<"$(backlog_summary "$OUT/backlog-burst.csv" 0 100000)"
# Drain rate: from the backlog's peak to the first zero (or the last sample).
BURST_RATE="$(awk -F, 'NR > 1 { if ($2 > mx) { mx = $2; tm = $1 } if (mx > 0 && $1 > tm) { last = $1; lv = $2 } if (mx > 0 && $2 == 0 && !z) { z = $1 } }
  END { e = z ? z : last; ev = z ? 0 : lv; printf "%.0f", ((e > tm) ? (mx - ev) / (e - tm) : 0) }' "$OUT/backlog-burst.csv")"
log "burst: mix at 64 clients ${BURST_RPS} req/s for ${BURST_SECS} s; outbox backlog peaked at ${BURST_BMAX}, drained in ${BURST_DRAIN} s (${BURST_RATE} events/s)"
quiesce

# --- pgbench --------------------------------------------------------------------------------------------------------------
prepare_pgbench_db
PGB_CTX="$(machine_context)"
PGB_SCRIPTS=(create.sql)
[[ -f "$BENCH_DIR/pgbench/create-minimal.sql" ]] && PGB_SCRIPTS+=(create-minimal.sql)
for s in "${PGB_SCRIPTS[@]}"; do
  for c in 8 32; do
    measure_pgbench "$c" "$PGB_SECS" "$s" "pgbench-${s%.sql}"
  done
done
# The floor: PostgreSQL alone, paced at the creates' open-model rates.
for f in "${FRACTIONS[@]}"; do
  measure_pgbench 8 "$(( PGB_SECS + ${BENCH_PGBENCH_SKIP:-5} ))" create.sql "floor-create-$(awk -v f="$f" 'BEGIN{printf "%d", f * 100}')" \
    "$(awk -v p="$REF_CREATE" -v f="$f" 'BEGIN{printf "%.1f", p * f}')"
done

HEAP_AFTER_GC="$(heap_after_gc_mib)"
stop_service

# --- CDS ----------------------------------------------------------------------------------------------------------------
CDS_DONE=0
if [[ "${BENCH_CDS:-1}" == 1 ]]; then
  EXTRACTED="$WORK/extracted"
  log "CDS: extracting the jar into $EXTRACTED"
  java -Djarmode=tools -jar "$FAT_JAR" extract --destination "$EXTRACTED" >"$RAW/cds-extract.txt" 2>&1 \
    || die "jar extraction failed (see $RAW/cds-extract.txt)"
  EXTRACTED_JAR="$EXTRACTED/$(basename "$FAT_JAR")"
  [[ -f "$EXTRACTED_JAR" ]] || die "no $EXTRACTED_JAR after the extraction"
  # The training run starts the application context (with its embedded PostgreSQL in a throw-away directory) and
  # exits when it is refreshed, writing the classes it loaded into the archive.
  log "CDS: training run"
  t0="$(now_ms)"
  java -XX:ArchiveClassesAtExit="$EXTRACTED/app.jsa" -Dspring.context.exit=onRefresh -jar "$EXTRACTED_JAR" \
    --server.port=0 --payments.db.data-dir="$WORK/cds-training-postgres" --payments.gateway.sandbox.webhooks=off \
    ${BENCH_APP_ARGS:-} >"$RAW/cds-training.txt" 2>&1 || log "the training run exited non-zero (see $RAW/cds-training.txt)"
  # If the training JVM left its PostgreSQL behind, stop it.
  pm="$(head -1 "$WORK/cds-training-postgres/postmaster.pid" 2>/dev/null || true)"
  if [[ "$pm" =~ ^[0-9]+$ ]] && kill -0 "$pm" 2>/dev/null && grep -q postgres "/proc/$pm/comm" 2>/dev/null; then
    log "stopping the PostgreSQL the training run left behind (pid $pm)"; kill -INT "$pm" 2>/dev/null || true
  fi
  CDS_TRAIN_S="$(awk -v a="$t0" -v b="$(now_ms)" 'BEGIN{printf "%.1f", (b - a) / 1000}')"
  CDS_SIZE="$(du -m "$EXTRACTED/app.jsa" 2>/dev/null | cut -f1 || echo '?')"
  if [[ -f "$EXTRACTED/app.jsa" ]]; then
    JAR="$EXTRACTED_JAR"
    timed_start extracted
    EXT_START_WALL="$START_WALL_S"; EXT_START_LOG="$START_LOG_S"
    stop_service
    SAVED_OPTS="${BENCH_JAVA_OPTS:-}"
    BENCH_JAVA_OPTS="$SAVED_OPTS -XX:SharedArchiveFile=$EXTRACTED/app.jsa"
    timed_start cds
    CDS_START_WALL="$START_WALL_S"; CDS_START_LOG="$START_LOG_S"
    warmup_curve cds
    CDS_FINAL="$CURVE_FINAL"; CDS_T90="$CURVE_T90"; CDS_FIRST="$CURVE_FIRST"; CDS_CTX="$CURVE_CTX"
    CDS_T90_FATREF="$(t90_against "$OUT/curve-cds.csv" "$FAT_FINAL")"
    stop_service
    BENCH_JAVA_OPTS="$SAVED_OPTS"
    JAR="$FAT_JAR"
    CDS_DONE=1
  else
    log "no CDS archive was written (see $RAW/cds-training.txt)"
  fi
fi
FAT_T90_SELF="$FAT_T90"

WALL=$(( SECONDS - STARTED_AT ))
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"

# --- report ---------------------------------------------------------------------------------------------------------------
verdict() { awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN{
  if (v == "" || v == "-") { print "not measured"; exit }
  ok = (op == "<") ? (v + 0 < t + 0) : (v + 0 == t + 0)
  print (ok ? "**met**" : "**not met**") }'; }
sum_or_never() { [[ "$2" == never ]] && echo never || awk -v a="$1" -v b="$2" 'BEGIN{printf "%.0f", a + b}'; }
openval() { awk -F'\t' -v s="$1" -v f="$2" -v k="$3" 'NR > 1 && $1 == s && $2 == f {print $k; exit}' "$OPEN"; }

open_table() {
  echo "| scenario | % of peak | target req/s | achieved req/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | p99 from actual send ms | errors | service CPU % of a core | load1 | other java | service CPU before % | generator behind schedule, max ms | collections | stopped ms | most stopped in one second, ms |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  awk -F'\t' 'NR > 1 {printf "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
    $1, $2 * 100, $3, $4, $5, $6, $7, $8, $9, $10, ($11 == 0 ? "0" : $11 " (" $12 ")"), $22, $23, $24, $25, $26,
    ($27 == "" ? "-" : $27), ($28 == "" ? "-" : $28), ($29 == "" ? "-" : $29)}' "$OPEN"
}
floorval() { awk -F'\t' -v n="floor-create-$1" '$1 == n {print $7; exit}' "$RESULTS"; }
targets_table() {
  echo "| measure | measured | target | verdict | PostgreSQL alone at that rate, p99 ms (pgbench -R, create.sql) |"
  echo "|---|---:|---|---|---:|"
  local s v e f limit fl
  for s in create mixed; do
    for f in 0.5 0.8; do
      limit=25; [[ "$f" == 0.8 ]] && limit=50
      v="$(openval "$s" "$f" 7)"; e="$(openval "$s" "$f" 11)"
      fl="-"; [[ "$s" == create ]] && fl="$(floorval "$(awk -v f="$f" 'BEGIN{printf "%d", f * 100}')")"
      if [[ "${v:--}" == - && -n "$e" && "$e" != 0 ]]; then
        echo "| p99, $s at $(awk -v f="$f" 'BEGIN{print f * 100}') % of peak (ms) | - (no request succeeded) | < $limit | **not met** | ${fl:--} |"
      else
        echo "| p99, $s at $(awk -v f="$f" 'BEGIN{print f * 100}') % of peak (ms) | ${v:--} | < $limit | $(verdict "${v:--}" "<" "$limit") | ${fl:--} |"
      fi
    done
  done
  e="$(awk -F'\t' 'NR > 1 {e += ($11 < 0 ? 1 : $11)} END {print e + 0}' "$OPEN")"
  echo "| errors, all open-model runs | $e | 0 | $(verdict "$e" "==" 0) | |"
  e="$(awk -F'\t' 'NR > 1 && ($15 > 1 || $17 == "-") {n++} END {print n + 0}' "$OPEN")"
  echo "| runs whose outbox backlog grew (trend > 1 event/s over the second half, or not drained after the run) | $e | 0 | $(verdict "$e" "==" 0) | |"
}
lag_table() {
  echo "| scenario | % of peak | events delivered | lag p50 ms | lag p99 ms | lag max ms | outbox backlog max | at the end of the run | trend, second half (events/s) | charges waiting, max | drained after the run (s) |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  awk -F'\t' 'NR > 1 {printf "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
    $1, $2 * 100, $18, $19, $20, $21, $13, $14, $15, $16, $17}' "$OPEN"
}
curve_table() { # the two curves side by side
  echo "| load s | creates/s, java -jar | service CPU % | creates/s, CDS | service CPU % |"
  echo "|---:|---:|---:|---:|---:|"
  join -t, -a1 -e- -o 0,1.3,1.4,2.3,2.4 <(tail -n +2 "$OUT/curve-fat.csv" | sort -t, -k1,1) \
    <(tail -n +2 "$OUT/curve-cds.csv" 2>/dev/null | sort -t, -k1,1) | sort -t, -k1,1n \
    | awk -F, '{printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}'
}
pgbench_table() {
  echo "| script | clients | tx/s (= creates/s) | p50 ms | p99 ms | max ms | failed | PostgreSQL CPU s / 1000 tx | host CPU busy % |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  awk -F'\t' '$1 ~ /^pgbench-/ {s = $1; sub(/^pgbench-/, "", s); printf "| `%s.sql` | %s | %.1f | %s | %s | %s | %s | %s | %s |\n", s, $2, $5, $6, $7, $8, $9, $12, $13}' "$RESULTS"
  [[ -f "$BENCH_DIR/pgbench/create-minimal.sql" ]] || echo "| \`create-minimal.sql\` | - | *not in this branch: the minimal sequence (one statement per transaction) comes with the create-path work; re-run after merging* | | | | | | |"
}

echo
cat "$OPEN" | column -t -s $'\t'
echo
echo "peak (closed loop, 32 clients): creates $PEAK_CREATE/s, mix $PEAK_MIXED/s; sustainable: creates $SUSTAINED_CREATE/s, mix $SUSTAINED_MIXED/s"
echo "burst: outbox backlog max $BURST_BMAX, drained in $BURST_DRAIN s"
echo "start-up (launch to healthy): java -jar $FAT_START_WALL s; time to 90 % of the final create rate: $FAT_T90 s of load"
(( CDS_DONE )) && echo "CDS: start-up $CDS_START_WALL s (extracted without CDS $EXT_START_WALL s); time to 90 %: $CDS_T90 s (against the java -jar final rate: $CDS_T90_FATREF s)"
echo "wall time ${WALL} s; raw outputs in $OUT"

if [[ "${BENCH_NO_DOC:-0}" != 1 ]]; then
  SECTION="$WORK/section.md"
  {
    echo "<!-- bench:begin key=open:$(slug "$LABEL") -->"
    echo "## Latency at a given load, event lag, warm-up: $LABEL"
    echo
    echo "Measured by \`payment-service/bench/open-model.sh\` on $(date -u '+%Y-%m-%d'): ${OPEN_SECS} s per open-model run (after ${OPEN_WARMUP} s unrecorded at the same rate), warm-up curves of ${CURVE_SECS} s, peaks over ${PEAK_SECS} s, a ${BURST_SECS} s burst; the whole run took ${WALL} s."
    echo
    echo "**One machine for everything.** The service, its PostgreSQL, the load generator and pgbench share the same 2 cores, so a load average of 3 to 6 is the measurement itself. Each row gives the 1-minute load average and the number of *other* java processes at its start: a row with other java processes (another build or test run) is disturbed; re-run before comparing."
    echo
    echo "### Machine"
    echo
    machine_table
    echo "| load average after the run | $LOAD_AFTER |"
    echo
    echo "### Targets"
    echo
    targets_table
    echo
    echo "### Peak (the reference for the fractions: $PEAK_REFERENCE)"
    echo
    echo "Closed loop: 32 clients for ${PEAK_SECS} s. Sustainable: the highest open-model rate, probed for ${PROBE_SECS} s at falling fractions of the closed-loop peak, that was sustained (achieved within 2 % of the target, no error, outbox backlog trend <= 1 event/s and drained); the fractions below are of the sustainable peak unless it says \"closed\" above."
    echo
    echo "| load | closed loop req/s | sustainable req/s (open model) | load1 / other java at start |"
    echo "|---|---:|---:|---|"
    echo "| creates (\`create.lua\`) | $PEAK_CREATE | $SUSTAINED_CREATE | $PEAK_CTX |"
    echo "| mix (\`mixed.lua\`: 70 % create, 20 % replay, 10 % webhook) | $PEAK_MIXED | $SUSTAINED_MIXED | $PEAK_CTX |"
    if [[ "$PEAK_REFERENCE" == sustainable ]]; then
      echo
      echo "Probes:"
      echo
      echo "| scenario | % of closed-loop peak | target req/s | achieved req/s | p99 ms | errors | backlog trend (events/s) | drained (s) |"
      echo "|---|---:|---:|---:|---:|---:|---:|---:|"
      awk -F'\t' 'NR > 1 {printf "| %s | %d | %s | %s | %s | %s | %s | %s |\n", $1, $2 * 100, $3, $4, $7, $11, $15, $17}' "$PROBES"
    fi
    echo
    echo "### Open model (constant arrival rate)"
    echo
    echo "\`OpenLoad.java\` sends request i at start + i / rate, whether or not earlier answers have come back, and measures each latency from that intended send time (a stall of the service shows in every request that was due meanwhile). Errors: non-2xx answers, timeouts (5 s), I/O errors, and requests not sent because 2,000 were already outstanding. \"p99 from actual send\" is measured from the moment the request was handed to the HTTP client instead (close to what a closed-loop tool reports); \"generator behind schedule\" is how late the generator itself sent a request (large values: the generator was starved of CPU, and the figures include that). Service CPU is the service JVM's utime+stime during the run, in % of one core; \"service CPU before\" is what it used in the second before the run started (the harness waits for it to go idle). Per-second send/answer counts: \`timeline-*.csv\` in the results directory. Collections and stopped ms are the service JVM's stop-the-world collections during the run (\`jstat -gc\`; sampled every second for the most stopped in one second, about the longest pause; each run starts after a full collection, \`jcmd GC.run\`, so an earlier overloaded run's garbage does not slow its young collections)."
    echo
    open_table
    echo
    echo "### Event-delivery lag and outbox backlog"
    echo
    echo "Lag = \`events.dispatched_at - events.created_at\` (created by the request's transaction, dispatched when the outbox relay's consumers are done with it) for every event created during the run, read after the backlog drained. The backlog (events not yet dispatched, not parked) and the sandbox charges waiting for settlement were sampled every second into \`backlog-*.csv\`; the trend is the least-squares slope over the second half of the run (about 0: bounded). Drained: seconds from the end of the run until both were zero (polled every second; \"-\": not within ${DRAIN_MAX} s)."
    echo
    lag_table
    echo
    echo "### Burst and drain"
    echo
    echo "| burst | req/s | outbox backlog at its peak | charges waiting at the peak | drained after the burst (s) | drain rate (events/s) | load1 / other java at start |"
    echo "|---|---:|---:|---:|---:|---:|---|"
    echo "| mix at 64 clients, closed loop, ${BURST_SECS} s | $BURST_RPS | $BURST_BMAX | $BURST_CMAX | $BURST_DRAIN$( (( BURST_DRAINED )) || echo " (not drained in ${DRAIN_MAX} s)") | $BURST_RATE | $BURST_CTX |"
    echo
    echo "### pgbench-equivalents"
    echo
    echo "Same embedded PostgreSQL, own database from the same migrations, \`-M prepared\`, ${PGB_SECS} s each, load1 / other java at start: $PGB_CTX."
    echo
    pgbench_table
    echo
    echo "The floor: \`create.sql\` alone at the creates' open-model rates (\`pgbench -R\`, 8 clients, latency from each transaction's scheduled start, ${PGB_SECS} s each after the first ${BENCH_PGBENCH_SKIP:-5} s, left out as the open-model runs leave out theirs: pgbench clients prepare their statements then). The service's create at the same rate adds its HTTP, JSON, state machine and sandbox work to these figures."
    echo
    echo "| % of peak | rate (tx/s) | achieved tx/s | p50 ms | p99 ms | max ms | failed |"
    echo "|---:|---:|---:|---:|---:|---:|---:|"
    awk -F'\t' -v ref="$REF_CREATE" '$1 ~ /^floor-create-/ {f = $1; sub(/^floor-create-/, "", f); printf "| %s | %.1f | %.1f | %s | %s | %s | %s |\n", f, ref * f / 100, $5, $6, $7, $8, $9}' "$RESULTS"
    echo
    echo "### Warm-up and CDS"
    echo
    echo "Creates at 32 clients (wrk, closed loop) from the moment the service answered its health check, counted per 10 s window in the database. \"Final\" is the median of the curve's last six windows; time to 90 % is the end of the first window at >= 90 % of it. Start-up is launch to the first \`/actuator/health\` 200 (fresh embedded PostgreSQL data directory each time, so it includes initdb and the Flyway migrations), and Spring's own \"Started ... in\" figure."
    echo
    echo "| | java -jar (fat jar) | extracted jar, no CDS | extracted jar + CDS archive |"
    echo "|---|---:|---:|---:|"
    if (( CDS_DONE )); then
      echo "| start-up, launch to healthy (s) | $FAT_START_WALL | $EXT_START_WALL | $CDS_START_WALL |"
      echo "| Spring \"Started in\" (s) | $FAT_START_LOG | $EXT_START_LOG | $CDS_START_LOG |"
      echo "| creates/s in the first 10 s | $FAT_FIRST | - | $CDS_FIRST |"
      echo "| final creates/s (median of the last minute) | $FAT_FINAL | - | $CDS_FINAL |"
      echo "| seconds of load to 90 % of its own final rate | $FAT_T90_SELF | - | $CDS_T90 |"
      echo "| seconds of load to 90 % of the java -jar final rate | $FAT_T90_SELF | - | $CDS_T90_FATREF |"
      echo "| seconds from launch to 90 % of the java -jar final rate | $(sum_or_never "$FAT_START_WALL" "$FAT_T90_SELF") | - | $(sum_or_never "$CDS_START_WALL" "$CDS_T90_FATREF") |"
      echo "| load1 / other java at the curve's start | $FAT_CTX | - | $CDS_CTX |"
    else
      echo "| start-up, launch to healthy (s) | $FAT_START_WALL | - | - |"
      echo "| Spring \"Started in\" (s) | $FAT_START_LOG | - | - |"
      echo "| creates/s in the first 10 s | $FAT_FIRST | - | - |"
      echo "| final creates/s | $FAT_FINAL | - | - |"
      echo "| seconds of load to 90 % of the final rate | $FAT_T90_SELF | - | - |"
    fi
    echo
    if (( CDS_DONE )); then
      echo "CDS archive: ${CDS_SIZE} MiB, training run ${CDS_TRAIN_S} s. The commands:"
      echo
      echo '```'
      echo "java -Djarmode=tools -jar payment-service/target/payment-service-0.1.0-SNAPSHOT.jar extract --destination app"
      echo "java -XX:ArchiveClassesAtExit=app/app.jsa -Dspring.context.exit=onRefresh -jar app/payment-service-0.1.0-SNAPSHOT.jar \\"
      echo "     --server.port=0 --payments.db.data-dir=/tmp/training-postgres   # training run: exits once the context is refreshed"
      echo "java -XX:SharedArchiveFile=app/app.jsa -jar app/payment-service-0.1.0-SNAPSHOT.jar   # every start after"
      echo '```'
      echo
    fi
    echo "Windows (creates/s per 10 s of load):"
    echo
    curve_table
    echo "<!-- bench:end -->"
  } >"$SECTION"
  merge_doc open "$LABEL" "$SECTION"
  log "wrote $DOC (section \"$LABEL\")"
fi
