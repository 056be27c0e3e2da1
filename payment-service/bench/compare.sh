#!/usr/bin/env bash
# Did a change make creates dearer? Compares two commits on the one figure issues are judged by, create ÷
# pgbench-equivalent at 32 clients, with enough runs to see through a shared machine's drift (about 2 minutes per run;
# the default 10 runs, five per side, take about 21 minutes).
#
#   payment-service/bench/compare.sh 8913890 HEAD          # before, after: commits, tags or branches
#   COMPARE_RUNS=6 payment-service/bench/compare.sh main my-branch
#
# Why not two runs of run.sh: on these 2-core machines one measurement's ratio swings by ±0.04 around 0.36 (sd over
# ten of one jar), so a pair of runs cannot tell a 5 % change from noise, and the run made second meets a different
# machine than the first. Here every run starts a fresh JVM on a fresh embedded PostgreSQL, warms it up with 30 s of
# creates, then measures twice: pgbench-equivalent 15 s, create 15 s; the two commits alternate in ABBA order
# (before, after, after, before, ...) so that a drift of the machine falls on both. The summary prints, per commit, the
# mean, median and standard deviation (over its measurements, two per run) of the ratio and of the service's CPU
# seconds per 1000 creates, and the difference of the means with its standard error. docs/performance.md, "Issue 26
# measured again", shows why.
#
# Each commit's jar is built once in a temporary git worktree and kept in bench/results/jars/<commit>.jar.
# Environment (optional): COMPARE_RUNS (runs per commit, default 5), COMPARE_CLIENTS (default 32),
# COMPARE_SECONDS (per measurement, default 15), COMPARE_OUT (default bench/results/compare-<time>).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[[ $# == 2 ]] || die "usage: $0 <before commit> <after commit>"
RUNS="${COMPARE_RUNS:-5}"
CLIENTS_N="${COMPARE_CLIENTS:-32}"
SECS="${COMPARE_SECONDS:-15}"
OUT="${COMPARE_OUT:-$BENCH_DIR/results/compare-$(date -u +%Y%m%dT%H%M%SZ)}"
JARS="$BENCH_DIR/results/jars"
mkdir -p "$OUT" "$JARS"

jar_of() { # builds (once) the service jar of a commit; prints its path
  local commit tree
  commit="$(git -C "$REPO_DIR" rev-parse --short=12 "$1^{commit}")" || die "not a commit: $1"
  if [[ ! -f "$JARS/$commit.jar" ]]; then
    tree="$(mktemp -d /tmp/payorch-compare-tree.XXXXXX)"
    log "building the jar of $commit (in a worktree at $tree)"
    git -C "$REPO_DIR" worktree add --detach "$tree" "$commit" >/dev/null 2>&1 || die "git worktree add failed"
    (cd "$tree" && { ./mvnw -q -o package -DskipTests || ./mvnw -q package -DskipTests; }) >&2 \
      || { git -C "$REPO_DIR" worktree remove --force "$tree"; die "the build of $commit failed"; }
    cp "$tree/payment-service/target/payment-service-0.1.0-SNAPSHOT.jar" "$JARS/$commit.jar"
    git -C "$REPO_DIR" worktree remove --force "$tree"
  fi
  echo "$JARS/$commit.jar"
}

ensure_tools
BEFORE="$(git -C "$REPO_DIR" rev-parse --short=12 "$1^{commit}")"
AFTER="$(git -C "$REPO_DIR" rev-parse --short=12 "$2^{commit}")"
BEFORE_JAR="$(jar_of "$BEFORE")"
AFTER_JAR="$(jar_of "$AFTER")"
declare -A JAR_OF=([before]="$BEFORE_JAR" [after]="$AFTER_JAR")
SUMMARY="$OUT/runs.tsv"
: >"$SUMMARY"

WORK=""
cleanup() {
  local rc=$?
  stop_service
  [[ -n "$WORK" ]] && rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

order=()
for (( i = 0; i < RUNS; i++ )); do
  if (( i % 2 == 0 )); then order+=(before after); else order+=(after before); fi
done

n=0
for which in "${order[@]}"; do
  n=$(( n + 1 ))
  RAW="$OUT/$n-$which/raw"; RESULTS="$OUT/$n-$which/results.tsv"
  mkdir -p "$RAW"; : >"$RESULTS"
  WORK="$(mktemp -d /tmp/payorch-compare.XXXXXX)"
  JAR="${JAR_OF[$which]}"
  log "run $n of ${#order[@]}: $which"
  start_service "$WORK"
  prepare_pgbench_db
  W_THREADS=1 W_RUN="warm$n" measure_wrk warmup 8 30 seed.lua 0
  quiesce
  for m in 1 2; do
    measure_pgbench "$CLIENTS_N" "$SECS"; pgbench_tps="$W_RPS"; quiesce
    W_RUN="cmp$n-$m" measure_wrk create "$CLIENTS_N" "$SECS" create.lua; quiesce
    cpu="$(awk -F'\t' '$1 == "create" {v = $11} END {print v}' "$RESULTS")"
    printf '%s\t%s\t%s\t%s\t%s\n' "$which" "$n" "$pgbench_tps" "$W_RPS" "$cpu" >>"$SUMMARY"
  done
  stop_service
  rm -rf "$WORK"; WORK=""
done

awk -F'\t' -v before="$BEFORE" -v after="$AFTER" '
  { r = $4 / $3; k = $1; n[k]++; sr[k] += r; sr2[k] += r * r; sc[k] += $5; sc2[k] += $5 * $5; rs[k, n[k]] = r; cs[k, n[k]] = $5 }
  function median(a, k, m,   i, j, t, v) {
    for (i = 1; i <= m; i++) v[i] = a[k, i]
    for (i = 2; i <= m; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
    return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
  }
  function sd(s, s2, m) { return m > 1 ? sqrt((s2 - s * s / m) / (m - 1)) : 0 }
  END {
    printf "\n%-7s %-12s %12s %23s %27s\n", "", "commit", "measurements", "create / pgbench: mean median sd", "CPU s/1000 creates: mean median sd"
    for (x = 1; x <= 2; x++) {
      k = x == 1 ? "before" : "after"
      printf "%-7s %-12s %12d %13.3f %6.3f %5.3f %15.2f %6.2f %5.2f\n", k, k == "before" ? before : after, n[k],
        sr[k] / n[k], median(rs, k, n[k]), sd(sr[k], sr2[k], n[k]),
        sc[k] / n[k], median(cs, k, n[k]), sd(sc[k], sc2[k], n[k])
    }
    d = sr["after"] / n["after"] - sr["before"] / n["before"]
    se = sqrt(sd(sr["before"], sr2["before"], n["before"]) ^ 2 / n["before"] + sd(sr["after"], sr2["after"], n["after"]) ^ 2 / n["after"])
    printf "\nafter - before, ratio: %+.3f (standard error %.3f; a difference within two standard errors is noise)\n", d, se
  }' "$SUMMARY" | tee "$OUT/summary.txt"
log "per-run figures: $SUMMARY; raw outputs: $OUT"
