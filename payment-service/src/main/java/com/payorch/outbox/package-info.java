/**
 * The outbox relay: delivers events to in-process consumers, at least once.
 */
package com.payorch.outbox;
