/**
 * The optional Kafka event stream: with {@code payments.events.kafka.bootstrap-servers} set, every outbox event is
 * also published to a Kafka topic, at least once, keyed by payment id.
 */
package com.payorch.eventstream;
