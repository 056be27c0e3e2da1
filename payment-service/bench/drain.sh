#!/usr/bin/env bash
# Background work on one instance and on three (issue: background work that keeps up with peak load): a burst of
# creates into one instance, then how fast the outbox relay and the sandbox's settlement bring the work it left back
# to zero, first with one instance's jobs, then with three instances on the same PostgreSQL. About 6 minutes.
#
#   payment-service/bench/drain.sh
#
# In order: one service (java -jar, embedded PostgreSQL in a fresh directory, webhooks off, as run.sh); creates at
# 32 clients for BENCH_DRAIN_WARMUP seconds (unrecorded: the JIT); the burst (creates at 64 clients, closed loop,
# BENCH_BURST_SECONDS) with the outbox backlog and the sandbox charges waiting for settlement sampled every second
# until both are zero; then two more instances on the same PostgreSQL (external-database settings, as the fault
# campaign starts them), each warmed by creates of its own, and the same burst into the first instance again.
# The drain rate is from the backlog's peak to its first zero; the rate the burst produced is events created per
# second of burst. Writes its section of docs/performance.md (BENCH_NO_DOC=1: not).
#
# Environment (all optional): BENCH_BURST_SECONDS (15), BENCH_DRAIN_WARMUP (60), BENCH_DRAIN_MAX (180),
# BENCH_LABEL ("current code"), BENCH_OUT, BENCH_JAVA_OPTS, BENCH_APP_ARGS: as in run.sh/lib.sh.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

BURST_SECS="${BENCH_BURST_SECONDS:-15}"
WARMUP_SECS="${BENCH_DRAIN_WARMUP:-60}"
DRAIN_MAX="${BENCH_DRAIN_MAX:-180}"
LABEL="${BENCH_LABEL:-current code}"
STARTED_AT=$SECONDS
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
# The development console user's hash (the same as the fault campaign's): an external database refuses the shipped one.
OPERATOR_BCRYPT='$2a$10$XXwYzh30fGVPiwp03I6WHeajyrozDPHFJDlydfBhgzXPq/mcoUN4e'

ensure_tools

OUT="${BENCH_OUT:-$BENCH_DIR/results/drain-$(date -u +%Y%m%dT%H%M%SZ)}"
RAW="$OUT/raw"
RESULTS="$OUT/results.tsv"
DRAINS="$OUT/drains.tsv"
mkdir -p "$RAW"
: >"$RESULTS"
printf 'instances\tburst_rps\tcreates\tevents_created\tevents_per_s_produced\tbacklog_max\tcharges_max\tdrain_s\tdrain_events_per_s\tcharges_per_s\tload1\tother_java\n' >"$DRAINS"
WORK="$(mktemp -d /tmp/payorch-drain.XXXXXX)"
EXTRA_PIDS=()
SAMPLER_PID=""
cleanup() {
  local rc=$? pid
  [[ -n "$SAMPLER_PID" ]] && kill "$SAMPLER_PID" 2>/dev/null || true
  for pid in "${EXTRA_PIDS[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${EXTRA_PIDS[@]}"; do
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  stop_service
  local d
  for d in "$WORK"/*/; do
    [[ -f "$d/service.log" ]] && cp "$d/service.log" "$OUT/service-$(basename "$d").log" 2>/dev/null || true
  done
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now_ms() { date +%s%3N; }

# start_instance <name>: one more instance on the first one's PostgreSQL; sets INSTANCE_URL.
start_instance() {
  local name="$1" port url pid
  port="$(free_port)"; url="http://127.0.0.1:$port"
  mkdir -p "$WORK/$name"
  local db="127.0.0.1:$PG_PORT/payments"
  # shellcheck disable=SC2086
  java ${BENCH_JAVA_OPTS:-} -jar "$JAR" --server.port="$port" \
    --spring.r2dbc.url="r2dbc:postgresql://$db" --spring.r2dbc.username=postgres --spring.r2dbc.password= \
    --spring.flyway.url="jdbc:postgresql://$db" --spring.flyway.user=postgres --spring.flyway.password= \
    --payments.db.embedded=false --payments.allow-development-defaults=true \
    --payments.console.users.operator.password-bcrypt="$OPERATOR_BCRYPT" \
    --payments.gateway.sandbox.webhooks=off ${BENCH_APP_ARGS:-} >"$WORK/$name/service.log" 2>&1 &
  pid=$!
  EXTRA_PIDS+=("$pid")
  local deadline=$(( SECONDS + 180 ))
  until [[ "$(curl -s -o /dev/null -w '%{http_code}' "$url/actuator/health" 2>/dev/null)" == 200 ]]; do
    kill -0 "$pid" 2>/dev/null || { tail -50 "$WORK/$name/service.log" >&2; die "instance $name exited during start"; }
    (( SECONDS < deadline )) || die "instance $name did not become healthy in 180 s"
    sleep 0.5
  done
  log "instance $name (pid $pid) healthy at $url"
  INSTANCE_URL="$url"
}

# warm <base url> <name>: creates at 32 clients for WARMUP_SECS, not recorded.
warm() {
  local saved="$BASE_URL"
  BASE_URL="$1"
  W_THREADS=2 W_RUN="w$2" measure_wrk "warm-$2" 32 "$WARMUP_SECS" create.lua 0
  BASE_URL="$saved"
}

# start_sampler <csv>: every second, elapsed s, outbox backlog, sandbox charges processing, events created so far.
start_sampler() {
  local csv="$1"
  echo "elapsed_s,outbox_backlog,charges_processing,events" >"$csv"
  (
    trap 'exit 0' TERM
    b="$(now_ms)"
    while true; do
      sleep 1
      row="$(sql "select (select count(*) from events where dispatched_at is null and parked_at is null),
                         (select count(*) from sandbox_charges where status = 'processing'),
                         (select count(*) from events)" 2>/dev/null | tr '|' ',')"
      [[ -n "$row" ]] && awk -v b="$b" -v t="$(now_ms)" -v row="$row" 'BEGIN{printf "%.1f,%s\n", (t - b) / 1000, row}' >>"$csv"
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


# burst <instances>: the burst into the first instance, sampled until drained; one line in DRAINS.
burst() {
  local n="$1" csv="$OUT/backlog-$1.csv" ctx e0 e1 p0 p1 w0 w1 drain="-"
  quiesce
  ctx="$(machine_context)"
  e0="$(sql "select count(*) from events")"; p0="$(sql "select count(*) from payments")"
  start_sampler "$csv"
  w0="$(now_ms)"
  W_RUN="b$n" measure_wrk "burst-$n-instances" 64 "$BURST_SECS" create.lua
  w1="$(now_ms)"
  e1="$(sql "select count(*) from events")"; p1="$(sql "select count(*) from payments")"
  if wait_drained "$DRAIN_MAX"; then
    drain="$(awk -v a="$w1" -v b="$(now_ms)" 'BEGIN{printf "%.0f", (b - a) / 1000}')"
  else
    log "not drained ${DRAIN_MAX} s after the burst on $n instance(s)"
  fi
  sleep 1
  stop_sampler
  # From the backlog's (and the charges') peak to the first zero after it.
  local rates
  rates="$(awk -F, 'NR > 1 {
      if ($2 > bm) { bm = $2; bt = $1 } if (bm > 0 && $1 > bt && $2 == 0 && !bz) bz = $1
      if ($3 > cm) { cm = $3; ct = $1 } if (cm > 0 && $1 > ct && $3 == 0 && !cz) cz = $1 }
    END { printf "%d %d %.0f %.0f", bm, cm, (bz > bt ? bm / (bz - bt) : 0), (cz > ct ? cm / (cz - ct) : 0) }' "$csv")"
  local bmax cmax brate crate
  read -r bmax cmax brate crate <<<"$rates"
  local secs events
  secs="$(awk -v a="$w0" -v b="$w1" 'BEGIN{printf "%.1f", (b - a) / 1000}')"
  events=$(( e1 - e0 ))
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$W_RPS" $(( p1 - p0 )) "$events" \
    "$(awk -v e="$events" -v s="$secs" 'BEGIN{printf "%.0f", e / s}')" "$bmax" "$cmax" "$drain" "$brate" "$crate" \
    "$(echo "$ctx" | tr ' ' '\t')" >>"$DRAINS"
  log "$n instance(s): burst ${W_RPS} req/s, $events events; backlog peak $bmax, charges peak $cmax; drained ${drain} s after (events ${brate}/s, charges ${crate}/s)"
}

mkdir -p "$WORK/first"
start_service "$WORK/first"
BENCH_PG_VERSION="$(sql 'show server_version' 2>/dev/null || echo '?')"
warm "$BASE_URL" first
burst 1

start_instance second; SECOND_URL="$INSTANCE_URL"
start_instance third; THIRD_URL="$INSTANCE_URL"
warm "$SECOND_URL" second
warm "$THIRD_URL" third
burst 3

WALL=$(( SECONDS - STARTED_AT ))
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"
echo
column -t -s $'\t' "$DRAINS"
echo "wall time ${WALL} s; raw outputs in $OUT"

if [[ "${BENCH_NO_DOC:-0}" != 1 ]]; then
  SECTION="$WORK/section.md"
  {
    echo "<!-- bench:begin key=drain:$(slug "$LABEL") -->"
    echo "## Drain on one instance and on three: $LABEL"
    echo
    echo "Measured by \`payment-service/bench/drain.sh\` on $(date -u '+%Y-%m-%d'): a ${BURST_SECS} s burst of creates at 64 clients (closed loop) into the first instance, after ${WARMUP_SECS} s of creates to warm each instance; then the seconds until the outbox backlog (events not dispatched, not parked) and the sandbox charges waiting for settlement are both zero again, sampled every second (\`backlog-<n>.csv\`). Drain rates run from each backlog's peak to its first zero. Three instances: the second and third on the first one's PostgreSQL, as the fault campaign starts them; the burst still goes into the first (the question is who drains, not who serves). The whole run took ${WALL} s."
    echo
    echo "### Machine"
    echo
    machine_table
    echo "| load average after the run | $LOAD_AFTER |"
    echo
    echo "### Results"
    echo
    echo "| instances | burst req/s | creates | events created | events/s produced | outbox backlog peak | charges waiting peak | drained after the burst (s) | events drained/s | charges settled/s | load1 / other java at start |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    awk -F'\t' 'NR > 1 {printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12}' "$DRAINS"
    echo "<!-- bench:end -->"
  } >"$SECTION"
  merge_doc drain "$LABEL" "$SECTION"
  log "wrote $DOC (section \"$LABEL\")"
fi
