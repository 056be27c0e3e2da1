#!/usr/bin/env bash
# Soak: does the heap stay flat under steady load? About 14 minutes on 2 cores.
#
#   payment-service/bench/soak.sh
#
# Starts the service as run.sh does (java -jar, embedded PostgreSQL in a fresh directory, webhooks off), warms it
# up, measures the peak of a create+get mix (half creates with new keys and bookings, half GETs of existing
# payments) at 32 clients, then runs the same mix for 10 minutes at half that rate (wrk paced with delay()),
# sampling every 30 s the heap in use, the heap after a full GC (jcmd GC.run, then the old generation it left,
# jvm_gc_live_data_size_bytes) and the RSS.
# Verdict: "growing" when the average after-GC heap of the last third of the samples exceeds the first third's by
# more than 10 % and more than 8 MiB, else "flat". Prints the series and writes (or replaces) the soak section
# labelled BENCH_LABEL in docs/performance.md.
#
# Environment (all optional): BENCH_SOAK_SECONDS (600), BENCH_SOAK_INTERVAL (30), BENCH_SOAK_FRACTION (0.5),
# BENCH_SOAK_CLIENTS (32), BENCH_WARMUP (120: the JIT needs about two minutes of load on 2 cores before the
# peak is the peak), BENCH_SOAK_PEAK (skip measuring the peak, use this req/s), BENCH_LABEL ("current code"),
# BENCH_NO_DOC=1, BENCH_JAVA_OPTS,
# BENCH_APP_ARGS, BENCH_OUT. BENCH_QUICK=1: 60 s soak, 10 s samples, 5 s warm-up.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [[ "${BENCH_QUICK:-0}" == 1 ]]; then
  : "${BENCH_SOAK_SECONDS:=60}" "${BENCH_SOAK_INTERVAL:=10}" "${BENCH_WARMUP:=5}" "${BENCH_LABEL:=quick try-out}"
fi
SOAK_SECS="${BENCH_SOAK_SECONDS:-600}"
INTERVAL="${BENCH_SOAK_INTERVAL:-30}"
FRACTION="${BENCH_SOAK_FRACTION:-0.5}"
CLIENTS="${BENCH_SOAK_CLIENTS:-32}"
WARMUP="${BENCH_WARMUP:-120}"
LABEL="${BENCH_LABEL:-current code}"
STARTED_AT=$SECONDS
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"

ensure_tools

OUT="${BENCH_OUT:-$BENCH_DIR/results/soak-$(date -u +%Y%m%dT%H%M%SZ)}"
RAW="$OUT/raw"
RESULTS="$OUT/results.tsv"
mkdir -p "$RAW"
: >"$RESULTS"
WORK="$(mktemp -d /tmp/payorch-soak.XXXXXX)"
WRK_PID=""
cleanup() {
  local rc=$?
  [[ -n "$WRK_PID" ]] && kill -INT "$WRK_PID" 2>/dev/null || true
  stop_service
  [[ -f "$WORK/service.log" ]] && cp "$WORK/service.log" "$OUT/service.log" 2>/dev/null || true
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_service "$WORK"

log "warm-up: creates at 8 clients for ${WARMUP} s (not recorded)"
W_THREADS=1 W_RUN="soakwarm" measure_wrk warmup 8 "$WARMUP" seed.lua 0
quiesce
export BENCH_IDS_FILE="$WORK/payment-ids.txt"
sql "select id from payments where merchant_id = 'demo' order by random() limit 5000" >"$BENCH_IDS_FILE"

# Peak of the mix, unpaced (unless given).
if [[ -n "${BENCH_SOAK_PEAK:-}" ]]; then
  PEAK="$BENCH_SOAK_PEAK"
else
  BENCH_DELAY_MS=0 W_RUN="peak" measure_wrk soak-peak "$CLIENTS" 30 soak.lua
  PEAK="$W_RPS"
  quiesce
fi
TARGET="$(awk -v p="$PEAK" -v f="$FRACTION" 'BEGIN{printf "%.1f", p * f}')"

# Pacing: each of the C connections waits d ms (on average) before each request, so rate = C / (d + latency).
# A 20 s calibration run at d0 = C / target gives the latency under this load; the soak uses d = C / target - latency.
D0="$(awk -v c="$CLIENTS" -v r="$TARGET" 'BEGIN{printf "%.0f", c / r * 1000}')"
BENCH_DELAY_MS="$D0" W_RUN="calib" measure_wrk soak-calibration "$CLIENTS" 20 soak.lua
R0="$W_RPS"
DELAY="$(awk -v c="$CLIENTS" -v r="$TARGET" -v r0="$R0" -v d0="$D0" 'BEGIN{
  lat = c / r0 * 1000 - d0; if (lat < 0) lat = 0
  d = c / r * 1000 - lat; if (d < 1) d = 1; printf "%.0f", d }')"
quiesce
log "peak $PEAK req/s; soak target $TARGET req/s: $CLIENTS connections, mean delay $DELAY ms (calibration at $D0 ms gave $R0 req/s)"

# The soak, sampled.
SERIES="$OUT/series.tsv"
printf 'elapsed_s\theap_used_mib\theap_after_gc_mib\trss_mib\tpayments\tservice_cpu_s\n' >"$SERIES"
sample() {
  local t="$1"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$(heap_used_mib)" "$(heap_after_gc_mib)" "$(rss_mib)" \
    "$(sql 'select count(*) from payments')" \
    "$(awk -v t="$(proc_ticks "$SVC_PID")" -v hz="$CLK_TCK" 'BEGIN{printf "%.1f", t / hz}')" >>"$SERIES"
  tail -1 "$SERIES" | awk -F'\t' '{printf "[soak] t=%4ss heap %4s MiB, after GC %4s MiB, RSS %4s MiB, payments %s, service CPU %s s\n", $1, $2, $3, $4, $5, $6}' >&2
}
log "soak: ${SOAK_SECS} s at about $TARGET req/s, a sample every ${INTERVAL} s"
snapshot; J0=$S_JVM; P0=$S_PG
read -r PAY0 _ _ _ <<<"$(db_counts)"
sample 0
SOAK_T0=$SECONDS
BENCH_THREADS=2 BENCH_RUN="soak" BENCH_DELAY_MS="$DELAY" \
  wrk -t2 -c"$CLIENTS" -d"${SOAK_SECS}s" --timeout "${BENCH_TIMEOUT:-5s}" --latency -s "$BENCH_LUA_DIR/soak.lua" \
  "$BASE_URL" >"$RAW/soak.txt" 2>&1 &
WRK_PID=$!
next=$INTERVAL
while kill -0 "$WRK_PID" 2>/dev/null; do
  if (( SECONDS - SOAK_T0 >= next )); then
    (( next < SOAK_SECS )) && sample "$next"
    next=$(( next + INTERVAL ))
  fi
  sleep 1
done
wait "$WRK_PID" || true
WRK_PID=""
snapshot
read -r PAY1 _ _ _ <<<"$(db_counts)"
sample "$(( SECONDS - SOAK_T0 ))"

line="$(grep '^BENCH_RESULT' "$RAW/soak.txt" | tail -1 || true)"
[[ -n "$line" ]] || die "wrk printed no result for the soak; see $RAW/soak.txt"
declare -A r=()
for kv in ${line#BENCH_RESULT }; do r[${kv%%=*}]="${kv#*=}"; done
ERRORS=$(( r[err_connect] + r[err_read] + r[err_write] + r[err_timeout] + r[err_status] ))
ms() { awk -v v="$1" 'BEGIN{printf "%.1f", v / 1000}'; }
CPU_PER_1000="$(awk -v d=$(( S_JVM - J0 )) -v n="${r[requests]}" -v hz="$CLK_TCK" 'BEGIN{printf "%.3f", n ? d / hz / n * 1000 : 0}')"
PG_PER_1000="$(awk -v d=$(( S_PG - P0 )) -v n="${r[requests]}" -v hz="$CLK_TCK" 'BEGIN{printf "%.3f", n ? d / hz / n * 1000 : 0}')"

# Verdict: first third against last third of the after-GC heap samples.
read -r FIRST LAST SLOPE N VERDICT <<<"$(awk -F'\t' 'NR > 1 {t[++n] = $1; h[n] = $3} END {
  k = int(n / 3); if (k < 1) k = 1
  for (i = 1; i <= k; i++) a += h[i]; a /= k
  for (i = n - k + 1; i <= n; i++) b += h[i]; b /= k
  for (i = 1; i <= n; i++) { mt += t[i]; mh += h[i] } mt /= n; mh /= n
  for (i = 1; i <= n; i++) { sxy += (t[i] - mt) * (h[i] - mh); sxx += (t[i] - mt) ^ 2 }
  slope = sxx ? sxy / sxx * 60 : 0
  verdict = (b > a * 1.10 && b - a > 8) ? "growing" : "flat"
  printf "%.1f %.1f %.2f %d %s\n", a, b, slope, n, verdict }' "$SERIES")"
WALL=$(( SECONDS - STARTED_AT ))

echo
column -t -s $'\t' "$SERIES"
echo
echo "peak of the create+get mix at $CLIENTS clients: $PEAK req/s; soak target $TARGET req/s, achieved ${r[rps]} req/s"
echo "soak latency p50 $(ms "${r[p50_us]}") ms, p99 $(ms "${r[p99_us]}") ms, max $(ms "${r[max_us]}") ms; errors $ERRORS; new payments $(( PAY1 - PAY0 ))"
echo "heap after GC: first third $FIRST MiB, last third $LAST MiB, trend $SLOPE MiB/min over $N samples: $VERDICT"
echo "wall time ${WALL} s; raw outputs in $OUT"

if [[ "${BENCH_NO_DOC:-0}" != 1 ]]; then
  SECTION="$WORK/section.md"
  {
    echo "<!-- bench:begin key=soak:$(slug "$LABEL") -->"
    echo "## Soak: $LABEL"
    echo
    echo "Measured by \`payment-service/bench/soak.sh\` on $(date -u '+%Y-%m-%d') (commit \`$(git -C "$REPO_DIR" rev-parse --short=12 HEAD)\`, $(nproc) cores, $(awk '/^MemTotal:/{printf "%.1f GiB", $2 / 1048576}' /proc/meminfo), load average before $LOAD_BEFORE); the whole soak took ${WALL} s."
    echo "Load: half creates (new key, new booking), half GETs of existing payments, $CLIENTS connections paced by wrk's \`delay()\` (mean $DELAY ms, exponentially distributed). Peak of this mix, unpaced, measured first after a ${WARMUP} s warm-up: **$PEAK req/s**; target ${FRACTION} x peak = $TARGET req/s."
    echo "A sample every ${INTERVAL} s: heap in use (Prometheus \`jvm_memory_used_bytes{area=\"heap\"}\`), then a full GC (\`jcmd GC.run\`, which also pauses the service briefly) and what survived it (the old generation after that GC, Prometheus \`jvm_gc_live_data_size_bytes\`), and VmRSS."
    echo
    echo "| | |"
    echo "|---|---|"
    echo "| verdict | **$VERDICT** (heap after GC, average of the last third of the samples against the first third: $FIRST MiB -> $LAST MiB; linear trend $SLOPE MiB/min; growing means more than +10 % and more than +8 MiB) |"
    echo "| duration | ${SOAK_SECS} s, ${r[requests]} requests, $(( PAY1 - PAY0 )) payments created |"
    echo "| throughput | ${r[rps]} req/s (target $TARGET) |"
    echo "| latency | p50 $(ms "${r[p50_us]}") ms, p99 $(ms "${r[p99_us]}") ms, max $(ms "${r[max_us]}") ms |"
    echo "| errors | $ERRORS |"
    echo "| CPU s / 1000 requests | service $CPU_PER_1000, PostgreSQL $PG_PER_1000 |"
    echo
    echo "| elapsed s | heap in use MiB | heap after GC MiB | RSS MiB | payments in the database | service CPU s (total) |"
    echo "|---:|---:|---:|---:|---:|---:|"
    awk -F'\t' 'NR > 1 {printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6}' "$SERIES"
    echo "<!-- bench:end -->"
  } >"$SECTION"
  merge_doc soak "$LABEL" "$SECTION"
  log "wrote $DOC (soak section \"$LABEL\")"
fi
