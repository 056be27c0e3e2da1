#!/usr/bin/env bash
# JMH: the cost of PaymentLifecycle.next per payment request (time and allocation). Measured, never asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -pl statemachine-config -am test-compile
cp=$(./mvnw -q -pl statemachine-config dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/dev/stdout)
java -cp "statemachine-config/target/test-classes:statemachine-config/target/classes:$cp" org.openjdk.jmh.Main \
  PaymentLifecycleBenchmark -prof gc "$@"
