#!/usr/bin/env bash
# The fault campaign (issue 14; docs/reliability.md, "The fault campaign"): PostgreSQL, three service instances
# (java -jar), the Stripe and Adyen fakes, an SMTP server and a merchant-webhook receiver, TCP proxies on every link;
# seeded clients and a seeded nemesis for CHAOS_DURATION seconds; faults healed; the recovery horizon; the checker.
# Exit code 0 iff every invariant held.
#
#   CHAOS_SEED      the seed (default: random, printed); the same seed plans the same faults and client mix
#   CHAOS_DURATION  seconds of clients and faults (default 180)
#   CHAOS_CLIENTS   concurrent clients (default 8)
#   CHAOS_KAFKA     1: publish the events to an in-process Kafka broker too (default 0)
#   CHAOS_OUT       output directory (default payment-service/target/chaos/<seed>)
#   CHAOS_HORIZON   longest wait for the world to settle after the faults, seconds (default 120)
#   CHAOS_REBUILD   1: build the jar and the test classes even if they are there
#   CHAOS_CAMPAIGN_HEAP  the campaign JVM's -Xmx (default 768m, 3g for runs over 10 minutes)
#   CHAOS_FAILOVER  1: PostgreSQL as a primary and a synchronous streaming standby (Debian's postgresql-15, run as
#                   the user postgres), the instances on the multi-host URL, and primary failovers (kill -9 of the
#                   primary, promotion of the standby, the old primary rebuilt as the new standby); the 503 window of
#                   each is printed and in summary.json (default 0: one PostgreSQL)
#   CHAOS_FAILOVERS how many failovers with CHAOS_FAILOVER=1 (default 2: there and back)
#
# The campaign's code is the test source set payment-service/src/campaign/java, compiled with the tests into
# target/test-classes. Reuses payment-service/target/payment-service-0.1.0-SNAPSHOT.jar and target/test-classes when
# present (after ./mvnw verify they are); the test classpath is cached in payment-service/target/chaos-classpath.txt.
set -euo pipefail

CHAOS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SERVICE_DIR="$(dirname "$CHAOS_DIR")"
REPO_DIR="$(dirname "$SERVICE_DIR")"
JAR="$SERVICE_DIR/target/payment-service-0.1.0-SNAPSHOT.jar"
TEST_CLASSES="$SERVICE_DIR/target/test-classes"
CP_FILE="$SERVICE_DIR/target/chaos-classpath.txt"

log() { printf '[chaos %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

if [[ -z "${CHAOS_SEED:-}" ]]; then
  CHAOS_SEED=$(( (RANDOM << 30) | (RANDOM << 15) | RANDOM ))
fi
export CHAOS_SEED
export CHAOS_DURATION="${CHAOS_DURATION:-180}"
export CHAOS_CLIENTS="${CHAOS_CLIENTS:-8}"
export CHAOS_KAFKA="${CHAOS_KAFKA:-0}"
export CHAOS_OUT="${CHAOS_OUT:-$SERVICE_DIR/target/chaos/$CHAOS_SEED}"
export CHAOS_JAR="$JAR"
export CHAOS_FAILOVER="${CHAOS_FAILOVER:-0}"
if [[ "$CHAOS_FAILOVER" == 1 && ! -x /usr/lib/postgresql/15/bin/pg_ctl ]]; then
  log "CHAOS_FAILOVER=1 needs Debian's PostgreSQL 15: apt-get install postgresql-15"; exit 2
fi
log "seed $CHAOS_SEED (repeat with CHAOS_SEED=$CHAOS_SEED), ${CHAOS_DURATION} s, failover $CHAOS_FAILOVER, output $CHAOS_OUT"

cd "$REPO_DIR"
if [[ ! -f "$JAR" || ! -f "$TEST_CLASSES/com/payorch/chaos/ChaosCampaign.class" || "${CHAOS_REBUILD:-0}" == 1 ]]; then
  log "building the jar and the test classes"
  ./mvnw -q -o package -DskipTests || ./mvnw -q package -DskipTests
  rm -f "$CP_FILE"
fi
if [[ ! -s "$CP_FILE" || "$SERVICE_DIR/pom.xml" -nt "$CP_FILE" ]]; then
  log "resolving the test classpath"
  cp_args=(-q -pl payment-service -am test-compile dependency:build-classpath -Dmdep.includeScope=test
           -Dmdep.outputFile=target/chaos-classpath.txt)
  ./mvnw -o "${cp_args[@]}" || ./mvnw "${cp_args[@]}"
fi

mkdir -p "$CHAOS_OUT"
# The checker holds the whole history in memory: about 40 MB of JSON per 3 minutes of 8 clients.
heap="${CHAOS_CAMPAIGN_HEAP:-}"
if [[ -z "$heap" ]]; then
  if (( CHAOS_DURATION > 600 )); then heap=3g; else heap=768m; fi
fi
JAVA_OPTS=("-Xmx$heap" -XX:+UseParallelGC)

CAMPAIGN_PID=""
# Whatever happens to the campaign's JVM (Ctrl-C, a crash, kill -9), no instance or PostgreSQL outlives this script.
cleanup() {
  if [[ -n "$CAMPAIGN_PID" ]] && kill -0 "$CAMPAIGN_PID" 2>/dev/null; then
    kill -TERM "$CAMPAIGN_PID" 2>/dev/null || true   # its shutdown hook closes the world
    for _ in $(seq 1 60); do kill -0 "$CAMPAIGN_PID" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$CAMPAIGN_PID" 2>/dev/null || true
  fi
  if [[ -f "$CHAOS_OUT/instance.pids" ]]; then
    while read -r pid; do
      if [[ -n "$pid" ]] && grep -q payment-service "/proc/$pid/cmdline" 2>/dev/null; then
        log "killing orphan instance $pid"; kill -KILL "$pid" 2>/dev/null || true
      fi
    done < "$CHAOS_OUT/instance.pids"
  fi
  local pg_pid data
  for data in postgres pg-a pg-b; do
    pg_pid="$(head -1 "$CHAOS_OUT/$data/postmaster.pid" 2>/dev/null || true)"
    if [[ -n "$pg_pid" ]] && grep -q postgres "/proc/$pg_pid/cmdline" 2>/dev/null; then
      log "stopping orphan PostgreSQL $pg_pid ($data)"; kill -QUIT "$pg_pid" 2>/dev/null || true
    fi
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

set +e
java "${JAVA_OPTS[@]}" -cp "$TEST_CLASSES:$SERVICE_DIR/target/classes:$(cat "$CP_FILE")" \
  com.payorch.chaos.ChaosCampaign &
CAMPAIGN_PID=$!
wait "$CAMPAIGN_PID"
status=$?
set -e
CAMPAIGN_PID=""
log "exit $status (seed $CHAOS_SEED, output $CHAOS_OUT)"
exit "$status"
