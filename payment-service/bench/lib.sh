# Shared by run.sh and soak.sh (sourced, not run): tools, starting and stopping the service, process metrics,
# one wrk or pgbench measurement, and the docs/performance.md merge.
# shellcheck shell=bash

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SERVICE_DIR="$(dirname "$BENCH_DIR")"
REPO_DIR="$(dirname "$SERVICE_DIR")"
JAR="${BENCH_JAR:-$SERVICE_DIR/target/payment-service-0.1.0-SNAPSHOT.jar}"
DOC="$REPO_DIR/docs/performance.md"
MIGRATIONS="$REPO_DIR/db/src/main/resources/db/migration"
WEBHOOK_SECRET="${BENCH_WEBHOOK_SECRET:-whsec_ND6TizoORtDE/ir/gZloZLqP5sBT2eOENEVdcVM2d9Y=}"
API_KEY="${BENCH_API_KEY:-sk_test_demo}"
export BENCH_LUA_DIR="$BENCH_DIR/lua" BENCH_API_KEY="$API_KEY"
CLK_TCK="$(getconf CLK_TCK)"

SVC_PID=""
PG_PORT=""
PG_DATA=""
BASE_URL=""

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# --- tools ---------------------------------------------------------------------------------------------------------

ensure_tools() {
  if ! command -v wrk >/dev/null 2>&1; then
    log "installing wrk (Debian package)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y wrk >/dev/null || die "apt-get install wrk failed"
  fi
  local tool
  for tool in java jcmd psql pgbench curl awk; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is missing"
  done
  if [[ ! -f "$JAR" || "${BENCH_REBUILD:-0}" == 1 ]]; then
    log "building $JAR"
    (cd "$REPO_DIR" && { ./mvnw -q -o package -DskipTests || ./mvnw -q package -DskipTests; }) >&2 \
      || die "build failed"
  fi
}

# --- the service ---------------------------------------------------------------------------------------------------

free_port() {
  local port
  while true; do
    port=$(( 20000 + RANDOM % 40000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
}

# Starts the jar as a user would (embedded PostgreSQL, sandbox gateway, webhooks off) on a free port with a fresh
# data directory under $1. Extra JVM options: BENCH_JAVA_OPTS; extra application arguments: BENCH_APP_ARGS.
start_service() {
  local work="$1" port
  port="$(free_port)"
  PG_DATA="$work/postgres"
  BASE_URL="http://127.0.0.1:$port"
  log "starting the service on port $port (data in $PG_DATA)"
  # shellcheck disable=SC2086
  java ${BENCH_JAVA_OPTS:-} -jar "$JAR" --server.port="$port" --payments.db.data-dir="$PG_DATA" \
    --payments.gateway.sandbox.webhooks=off --payments.benchmark.noop-endpoint=true ${BENCH_APP_ARGS:-} \
    >"$work/service.log" 2>&1 &
  SVC_PID=$!
  local deadline=$(( SECONDS + 180 ))
  until [[ "$(curl -s -o /dev/null -w '%{http_code}' "$BASE_URL/actuator/health" 2>/dev/null)" == 200 ]]; do
    kill -0 "$SVC_PID" 2>/dev/null || { tail -50 "$work/service.log" >&2; die "the service exited during start"; }
    (( SECONDS < deadline )) || die "the service did not become healthy in 180 s (log: $work/service.log)"
    sleep 0.5
  done
  PG_PORT="$(grep -o 'Embedded PostgreSQL: data in .*, listening on localhost:[0-9]*' "$work/service.log" \
    | head -1 | sed 's/.*localhost://')"
  [[ -n "$PG_PORT" ]] || die "no 'Embedded PostgreSQL ... listening on' line in $work/service.log"
  log "service pid $SVC_PID healthy; embedded PostgreSQL on port $PG_PORT"
}

stop_service() {
  [[ -n "$SVC_PID" ]] || return 0
  if kill -0 "$SVC_PID" 2>/dev/null; then
    log "stopping the service (pid $SVC_PID)"
    kill -TERM "$SVC_PID" 2>/dev/null || true
    local i
    for i in $(seq 1 120); do
      kill -0 "$SVC_PID" 2>/dev/null || break
      sleep 0.5
    done
    if kill -0 "$SVC_PID" 2>/dev/null; then
      log "the service did not stop in 60 s: SIGKILL"
      kill -KILL "$SVC_PID" 2>/dev/null || true
    fi
    wait "$SVC_PID" 2>/dev/null || true
  fi
  SVC_PID=""
  # The embedded PostgreSQL normally stops with the JVM; if the JVM died, stop the postmaster it left behind.
  if [[ -n "$PG_DATA" && -f "$PG_DATA/postmaster.pid" ]]; then
    local pm
    pm="$(head -1 "$PG_DATA/postmaster.pid" 2>/dev/null || true)"
    if [[ "$pm" =~ ^[0-9]+$ ]] && kill -0 "$pm" 2>/dev/null && grep -q postgres "/proc/$pm/comm" 2>/dev/null; then
      log "stopping the PostgreSQL left behind (pid $pm)"
      kill -INT "$pm" 2>/dev/null || true
      local i
      for i in $(seq 1 40); do kill -0 "$pm" 2>/dev/null || break; sleep 0.5; done
      kill -0 "$pm" 2>/dev/null && kill -KILL "$pm" 2>/dev/null || true
    fi
  fi
}

psql_db() { # database, then psql arguments
  local db="$1"; shift
  psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -d "$db" -qAtX -v ON_ERROR_STOP=1 "$@"
}
sql() { psql_db payments -c "$1"; }

# --- process metrics ------------------------------------------------------------------------------------------------

proc_ticks() { # utime+stime of a pid (fields 14 and 15 of /proc/<pid>/stat)
  sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{print $12 + $13}' || echo 0
}

pg_ticks() { # the postmaster (with its reaped children) and its live children: all of PostgreSQL's CPU
  local pm total child t
  pm="$(head -1 "$PG_DATA/postmaster.pid" 2>/dev/null)" || { echo 0; return; }
  total="$(sed 's/^.*) //' "/proc/$pm/stat" 2>/dev/null | awk '{print $12 + $13 + $14 + $15}')"
  total="${total:-0}"
  for child in $(pgrep -P "$pm" 2>/dev/null); do
    t="$(proc_ticks "$child")"
    total=$(( total + ${t:-0} ))
  done
  echo "$total"
}

host_ticks() { # "busy total" from the first line of /proc/stat
  awk '/^cpu /{idle = $5 + $6; total = 0; for (i = 2; i <= 9; i++) total += $i; print total - idle, total; exit}' /proc/stat
}

rss_mib() { awk '/^VmRSS:/{printf "%.0f", $2 / 1024}' "/proc/$SVC_PID/status"; }

heap_used_mib() { # heap in use now (no GC), from the Prometheus endpoint
  curl -s "$BASE_URL/actuator/prometheus" \
    | awk '/^jvm_memory_used_bytes\{area="heap"/{sum += $NF} END {printf "%.0f", sum / 1048576}'
}

heap_after_gc_mib() { # forces a full GC (jcmd GC.run), then reads what survived it
  # jvm_gc_live_data_size_bytes is the old generation right after the last GC; a full GC leaves every live object
  # there, and the allocations made since (jcmd takes a while) stay in the young generation, so they do not count.
  jcmd "$SVC_PID" GC.run >/dev/null 2>&1 || true
  curl -s "$BASE_URL/actuator/prometheus" \
    | awk '/^jvm_gc_live_data_size_bytes /{printf "%.1f", $NF / 1048576; found = 1} END {if (!found) printf "?"}'
}

# gc_counts: "collections stopped_ms" of the service JVM so far, from jstat -gc: YGC + FGC + CGC collections and
# YGCT + FGCT + CGCT seconds (CGC/CGCT: G1's remark and cleanup pauses, ZGC's pauses).
gc_counts() {
  jstat -gc "$SVC_PID" 2>/dev/null | awk 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i}
    function v(k) { return (k in c && $(c[k]) != "-") ? $(c[k]) : 0 }
    NR == 2 { printf "%d %.1f", v("YGC") + v("FGC") + v("CGC"), (v("YGCT") + v("FGCT") + v("CGCT")) * 1000 }'
}

# start_gc_sampler / stop_gc_sampler: jstat -gc every second meanwhile; stop prints the most stop-the-world time in
# one second, ms (about the longest pause when there is at most one collection a second).
start_gc_sampler() {
  GC_SAMPLES="$(mktemp)"
  jstat -gc "$SVC_PID" 1000 >"$GC_SAMPLES" 2>/dev/null &
  GC_SAMPLER_PID=$!
}
stop_gc_sampler() {
  kill "$GC_SAMPLER_PID" 2>/dev/null || true
  wait "$GC_SAMPLER_PID" 2>/dev/null || true
  awk '$1 == "S0C" {for (i = 1; i <= NF; i++) c[$i] = i; next}
    function v(k) { return (k in c && $(c[k]) != "-") ? $(c[k]) : 0 }
    { t = (v("YGCT") + v("FGCT") + v("CGCT")) * 1000; if (n++ && t - p > m) m = t - p; p = t }
    END { printf "%.0f", m }' "$GC_SAMPLES"
  rm -f "$GC_SAMPLES"
}

children_cpu() { # user+sys CPU seconds of this shell's finished children, from the `times` builtin in file $1
  awk 'NR == 2 {
    n = split($0, f, " "); s = 0
    for (i = 1; i <= n; i++) { split(f[i], p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2] }
    print s }' "$1"
}

db_counts() { # payments, webhook receipts, outbox backlog (events not dispatched), sandbox charges not settled
  sql "select (select count(*) from payments), (select count(*) from webhook_receipts),
              (select count(*) from events where dispatched_at is null),
              (select count(*) from sandbox_charges where status = 'processing')" | tr '|' ' '
}

# wait_drained <max s>: until the outbox backlog and the charges are 0 (a sampler may keep recording meanwhile).
wait_drained() {
  local deadline=$(( SECONDS + $1 ))
  while (( SECONDS < deadline )); do
    read -r _ _ c1 c2 <<<"$(db_counts)"
    (( c1 + c2 == 0 )) && return 0
    sleep 1
  done
  return 1
}

# Waits (at most BENCH_QUIESCE_MAX, default 45 s) until the background work a run left behind (outbox relay,
# sandbox settlement) is done, then until the service's own CPU has gone idle (wait_service_idle), so neither
# runs into the next measurement. An empty backlog is not enough: the JIT and the jobs' last batches can still keep
# the JVM busy for seconds after the count reached zero.
quiesce() {
  local deadline=$(( SECONDS + ${BENCH_QUIESCE_MAX:-45} )) c
  while (( SECONDS < deadline )); do
    read -r _ _ c1 c2 <<<"$(db_counts)"
    (( c1 + c2 == 0 )) && break
    sleep 0.5
  done
  wait_service_idle
  sleep "${BENCH_PAUSE:-1}"
}

# Waits until the service's JVM (utime+stime from /proc/<pid>/stat, sampled every second) has used less than
# BENCH_IDLE_CPU percent of one core (default 15; the idle service's polling jobs use a few percent) for two
# seconds in a row, at most BENCH_IDLE_MAX seconds (default 30). Sets IDLE_CPU_PCT (the last one-second reading)
# and IDLE_WAITED (seconds waited); says so in the log when it gave up.
wait_service_idle() {
  local limit="${BENCH_IDLE_CPU:-15}" deadline=$(( SECONDS + ${BENCH_IDLE_MAX:-30} )) began=$SECONDS calm=0
  local t0 t1 n0 n1
  t0="$(proc_ticks "$SVC_PID")"; n0="$(date +%s%N)"
  while true; do
    sleep 1
    t1="$(proc_ticks "$SVC_PID")"; n1="$(date +%s%N)"
    IDLE_CPU_PCT="$(awk -v d=$(( t1 - t0 )) -v ns=$(( n1 - n0 )) -v hz="$CLK_TCK" \
      'BEGIN{printf "%.0f", (ns > 0 ? 100 * d / hz / (ns / 1e9) : 0)}')"
    t0="$t1"; n0="$n1"
    if (( IDLE_CPU_PCT < limit )); then calm=$(( calm + 1 )); else calm=0; fi
    (( calm >= 2 )) && break
    if (( SECONDS >= deadline )); then
      log "the service still used ${IDLE_CPU_PCT} % of a core after ${BENCH_IDLE_MAX:-30} s; measuring anyway"
      break
    fi
  done
  IDLE_WAITED=$(( SECONDS - began ))
}

# The shared-machine context of a measurement: "load1 other_java", the 1-minute load average and the number of
# java processes on the machine besides the service (and besides the pid given as $1, e.g. a load generator).
machine_context() {
  local others
  others="$(pgrep -x java 2>/dev/null | grep -v -x -e "${SVC_PID:-0}" -e "${1:-0}" | wc -l)"
  echo "$(cut -d' ' -f1 /proc/loadavg) $others"
}

# --- one measurement ------------------------------------------------------------------------------------------------
# RESULTS (a TSV file) gets one line per measurement:
#   scenario clients seconds requests rps p50_ms p99_ms max_ms errors error_detail svc_cpu_s_per_1000
#   pg_cpu_s_per_1000 host_busy_pct loadgen_cpu_pct heap_mib rss_mib note

results_line() { printf '%s\n' "$(IFS=$'\t'; echo "$*")" >>"$RESULTS"; }

snapshot() { # sets S_JVM S_PG S_BUSY S_TOTAL S_T
  S_JVM="$(proc_ticks "$SVC_PID")"; S_PG="$(pg_ticks)"
  read -r S_BUSY S_TOTAL <<<"$(host_ticks)"
  S_T="$(date +%s.%N)"
}

# measure_wrk <scenario> <clients> <seconds> <lua script> [record: 1|0]; extra environment for the script is set
# by the caller. Prints nothing; appends to RESULTS when recording. Sets W_RPS, W_REQUESTS, W_ERRORS.
# The lua scripts build idempotency keys and bookings from BENCH_RUN: its default is the whole scenario name and the
# client count, so two scenarios on one service never share keys (open-model.sh's peak-create and peak-mixed once
# did with the first two letters, "pe32": the mix's creates were replays of the creates' keys).
measure_wrk() {
  local scenario="$1" clients="$2" secs="$3" script="$4" record="${5:-1}"
  local threads="${W_THREADS:-2}"
  (( clients == 1 )) && threads=1
  local raw="$RAW/$scenario-c$clients.txt"
  [[ "$record" == 1 ]] || raw="$RAW/unrecorded-$scenario-c$clients-$(date +%s%N).txt"
  local before_counts after_counts
  before_counts="$(db_counts)"
  snapshot; local j0=$S_JVM p0=$S_PG b0=$S_BUSY t0=$S_TOTAL w0=$S_T
  times >"$WORK/times0"
  BENCH_THREADS="$threads" BENCH_RUN="${W_RUN:-$scenario$clients}" \
    wrk -t"$threads" -c"$clients" -d"${secs}s" --timeout "${BENCH_TIMEOUT:-5s}" --latency \
    -s "$BENCH_LUA_DIR/$script" "$BASE_URL" >"$raw" 2>&1 || true
  times >"$WORK/times1"
  snapshot
  after_counts="$(db_counts)"
  local line
  line="$(grep '^BENCH_RESULT' "$raw" | tail -1 || true)"
  if [[ -z "$line" ]]; then
    log "wrk printed no result for $scenario c=$clients; see $raw"
    tail -5 "$raw" >&2
    W_RPS=0; W_REQUESTS=0; W_ERRORS=-1
    [[ "$record" == 1 ]] && results_line "$scenario" "$clients" "$secs" 0 0 0 0 0 -1 "wrk failed" 0 0 0 0 0 0 "see $raw"
    return 0
  fi
  local -A r=()
  local kv
  for kv in ${line#BENCH_RESULT }; do r[${kv%%=*}]="${kv#*=}"; done
  W_RPS="${r[rps]}"; W_REQUESTS="${r[requests]}"
  W_ERRORS=$(( r[err_connect] + r[err_read] + r[err_write] + r[err_timeout] + r[err_status] ))
  local detail="-"
  (( W_ERRORS > 0 )) && detail="connect=${r[err_connect]} read=${r[err_read]} write=${r[err_write]} timeout=${r[err_timeout]} non2xx=${r[err_status]}"
  local lg0 lg1
  lg0="$(children_cpu "$WORK/times0")"; lg1="$(children_cpu "$WORK/times1")"
  read -r pay0 rcp0 _ _ <<<"$before_counts"
  read -r pay1 rcp1 obx1 chg1 <<<"$after_counts"
  read -r _ _ obx0 chg0 <<<"$before_counts"
  local note="new payments $(( pay1 - pay0 )); webhook receipts $(( rcp1 - rcp0 )); backlog at end: outbox $obx1, charges $chg1"
  [[ "$scenario" == webhook ]] && note="$note; duplicates $(( W_REQUESTS > rcp1 - rcp0 ? W_REQUESTS - (rcp1 - rcp0) : 0 ))"
  (( obx0 + chg0 > 0 )) && note="$note; backlog at start (disturbs this run): outbox $obx0, charges $chg0"
  [[ -n "${IDLE_CPU_PCT:-}" ]] && note="$note; service CPU before: ${IDLE_CPU_PCT} % of a core"
  [[ -n "${W_NOTE:-}" ]] && note="$note; $W_NOTE"
  if [[ "$record" == 1 ]]; then
    local heap rss
    heap="$(heap_used_mib)"; rss="$(rss_mib)"
    results_line "$scenario" "$clients" "$secs" "$W_REQUESTS" "$W_RPS" \
      "$(awk -v v="${r[p50_us]}" 'BEGIN{printf "%.1f", v / 1000}')" \
      "$(awk -v v="${r[p99_us]}" 'BEGIN{printf "%.1f", v / 1000}')" \
      "$(awk -v v="${r[max_us]}" 'BEGIN{printf "%.1f", v / 1000}')" \
      "$W_ERRORS" "$detail" \
      "$(awk -v d=$(( S_JVM - j0 )) -v n="$W_REQUESTS" -v hz="$CLK_TCK" 'BEGIN{printf "%.3f", n ? d / hz / n * 1000 : 0}')" \
      "$(awk -v d=$(( S_PG - p0 )) -v n="$W_REQUESTS" -v hz="$CLK_TCK" 'BEGIN{printf "%.3f", n ? d / hz / n * 1000 : 0}')" \
      "$(awk -v b=$(( S_BUSY - b0 )) -v t=$(( S_TOTAL - t0 )) 'BEGIN{printf "%.0f", t ? 100 * b / t : 0}')" \
      "$(awk -v a="$lg0" -v b="$lg1" -v w0="$w0" -v w1="$S_T" -v n="$(nproc)" 'BEGIN{printf "%.0f", 100 * (b - a) / (w1 - w0) / n}')" \
      "$heap" "$rss" "$note"
    log "$(printf '%-8s c=%-3s %8.1f req/s  p50 %6.1f ms  p99 %7.1f ms  max %7.1f ms  errors %s  (%s)' \
      "$scenario" "$clients" "$W_RPS" "$(awk -v v="${r[p50_us]}" 'BEGIN{print v/1000}')" \
      "$(awk -v v="${r[p99_us]}" 'BEGIN{print v/1000}')" "$(awk -v v="${r[max_us]}" 'BEGIN{print v/1000}')" \
      "$W_ERRORS" "$note")"
  fi
}

# The pgbench-equivalent of one create, in its own database (same server, same migrations), so the service's
# background jobs never see its rows.
prepare_pgbench_db() {
  psql_db payments -c "drop database if exists pgbench_equiv" -c "create database pgbench_equiv" >/dev/null
  local f
  for f in $(ls "$MIGRATIONS"/V*__*.sql | sort -V); do
    psql_db pgbench_equiv -f "$f" >/dev/null
  done
}

# measure_pgbench <clients> <seconds> [script in bench/pgbench, default create.sql] [scenario name, default
# pgbench]: appends a line to RESULTS. Sets W_RPS.
# measure_pgbench <clients> <seconds> [script] [name] [rate]: with a rate, pgbench runs an open model (-R: transactions
# scheduled at that rate) and each latency counts from the scheduled start (its schedule lag added), as OpenLoad does;
# the latencies then leave out the first BENCH_PGBENCH_SKIP seconds (tps still counts the whole run).
measure_pgbench() {
  local clients="$1" secs="$2" script="${3:-create.sql}" name="${4:-pgbench}" rate="${5:-}" jobs=2
  local paced=()
  [[ -n "$rate" ]] && paced=(-R "$rate")
  (( clients == 1 )) && jobs=1
  local raw="$RAW/$name-c$clients.txt" logdir="$RAW/$name-c$clients-log"
  mkdir -p "$logdir"
  snapshot; local j0=$S_JVM p0=$S_PG b0=$S_BUSY t0=$S_TOTAL w0=$S_T
  times >"$WORK/times0"
  (cd "$logdir" && pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -n -M prepared -c "$clients" -j "$jobs" \
    -T "$secs" "${paced[@]}" -f "$BENCH_DIR/pgbench/$script" -l --log-prefix=tx pgbench_equiv) >"$raw" 2>&1 || true
  times >"$WORK/times1"
  snapshot
  local n failed tps
  n="$(awk -F': ' '/number of transactions actually processed/{print $2 + 0}' "$raw")"
  failed="$(awk -F': ' '/number of failed transactions/{print $2 + 0}' "$raw")"
  tps="$(awk '/^tps = /{print $3}' "$raw")"
  if [[ -z "$tps" ]]; then
    log "pgbench failed at c=$clients; see $raw"; tail -5 "$raw" >&2
    W_RPS=0
    results_line "$name" "$clients" "$secs" 0 0 0 0 0 -1 "pgbench failed" 0 0 0 0 0 0 "see $raw"
    return 0
  fi
  W_RPS="$tps"
  local lat
  # Paced, the first BENCH_PGBENCH_SKIP seconds (default 5) are left out, as OpenLoad leaves out its first 5 s: each
  # client prepares its statements in its first transactions, which took 100-150 ms on 2026-12-02 and alone made the
  # p99 of a 30 s run at 80 tx/s (23 ms with them, 19 ms without).
  local skip=0
  [[ -n "$rate" ]] && skip="${BENCH_PGBENCH_SKIP:-5}"
  lat="$(cat "$logdir"/tx.* | awk '{printf "%.6f %d %d\n", $5 + $6 / 1e6, $3, $7}' | sort -n \
    | awk -v paced="${rate:+1}" -v skip="$skip" 'NR == 1 {t0 = $1} $1 >= t0 + skip {print paced ? $2 + $3 : $2}' \
    | sort -n | awk '{v[NR] = $1} END {
    if (NR == 0) { print "0 0 0"; exit }
    i50 = int(NR * 0.50); if (i50 < 1) i50 = 1; i99 = int(NR * 0.99); if (i99 < 1) i99 = 1
    printf "%.1f %.1f %.1f", v[i50] / 1000, v[i99] / 1000, v[NR] / 1000 }')"
  rm -rf "$logdir"
  local lg0 lg1
  lg0="$(children_cpu "$WORK/times0")"; lg1="$(children_cpu "$WORK/times1")"
  read -r p50 p99 pmax <<<"$lat"
  local errors="${failed:-0}" detail="-"
  grep -q 'aborted' "$raw" && { errors=$(( errors + 1 )); detail="client(s) aborted, see raw output"; }
  (( errors > 0 )) && [[ "$detail" == "-" ]] && detail="failed transactions $failed"
  results_line "$name" "$clients" "$secs" "$n" "$tps" "$p50" "$p99" "$pmax" "$errors" "$detail" \
    "$(awk -v d=$(( S_JVM - j0 )) -v n="$n" -v hz="$CLK_TCK" 'BEGIN{printf "%.3f", n ? d / hz / n * 1000 : 0}')" \
    "$(awk -v d=$(( S_PG - p0 )) -v n="$n" -v hz="$CLK_TCK" 'BEGIN{printf "%.3f", n ? d / hz / n * 1000 : 0}')" \
    "$(awk -v b=$(( S_BUSY - b0 )) -v t=$(( S_TOTAL - t0 )) 'BEGIN{printf "%.0f", t ? 100 * b / t : 0}')" \
    "$(awk -v a="$lg0" -v b="$lg1" -v w0="$w0" -v w1="$S_T" -v n="$(nproc)" 'BEGIN{printf "%.0f", 100 * (b - a) / (w1 - w0) / n}')" \
    "$(heap_used_mib)" "$(rss_mib)" "pgbench -M prepared -j $jobs, $script, one transaction = one create"
  log "$(printf '%-8s c=%-3s %8.1f tx/s   p50 %6.1f ms  p99 %7.1f ms  max %7.1f ms  failed %s' \
    "$name" "$clients" "$tps" "$p50" "$p99" "$pmax" "$errors")"
}

# --- machine and docs -----------------------------------------------------------------------------------------------

machine_table() {
  local mem cpu jv pgv commit dirty
  mem="$(awk '/^MemTotal:/{printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
  cpu="$(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo)"
  jv="$(java -version 2>&1 | head -2 | tr '\n' ' ' | sed 's/ *$//')"
  pgv="${BENCH_PG_VERSION:-$(sql 'show server_version' 2>/dev/null || echo '?')}"
  commit="$(git -C "$REPO_DIR" rev-parse --short=12 HEAD 2>/dev/null || echo '?')"
  dirty=""
  [[ -n "$(git -C "$REPO_DIR" status --porcelain -- "$SERVICE_DIR/src" "$REPO_DIR/db" "$REPO_DIR/statemachine-config" 2>/dev/null)" ]] \
    && dirty=" (with uncommitted changes to the main code)"
  cat <<EOF
| | |
|---|---|
| code | commit \`$commit\`$dirty |
| date | $(date -u '+%Y-%m-%d %H:%M UTC') |
| cores (\`nproc\`) | $(nproc) |
| memory | $mem |
| CPU | $cpu |
| kernel | $(uname -sr) |
| Java | $jv |
| PostgreSQL | $pgv (embedded, started by the service; \`fsync\` and \`synchronous_commit\` on) |
| load tools | $(wrk -v 2>&1 | head -1 | awk '{print $1, $2}'), $(pgbench --version) |
| load average before the run | $LOAD_BEFORE |
| JVM options | \`${BENCH_JAVA_OPTS:-(none: JVM defaults)}\` |
EOF
}

slug() { echo "$1" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '-' | sed 's/--*/-/g; s/^-//; s/-$//'; }

# merge_doc <kind> <label> <section file>: docs/performance.md = the intro (bench/doc-intro.md) followed by the
# labelled sections of earlier runs; a section of the same kind and label is replaced in place, a new one appended.
merge_doc() {
  local kind="$1" label="$2" section="$3" key tmp
  key="$kind:$(slug "$label")"
  tmp="$(mktemp)"
  {
    cat "$BENCH_DIR/doc-intro.md"
    if [[ -f "$DOC" ]]; then
      awk -v key="$key" -v section="$section" '
        /^<!-- bench:begin / { inblock = 1; k = $3; sub(/^key=/, "", k)
                               if (k == key) { while ((getline l < section) > 0) print l; replaced = 1; skip = 1 }
                               else { skip = 0; print "" ; print } next }
        /^<!-- bench:end -->/ { if (!skip) print; inblock = 0; skip = 0; next }
        inblock && !skip { print }
        END { if (!replaced) { print ""; while ((getline l < section) > 0) print l } }' "$DOC"
    else
      echo
      cat "$section"
    fi
  } | cat -s >"$tmp"
  mv "$tmp" "$DOC"
}
