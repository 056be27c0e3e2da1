/**
 * The {@code Idempotency-Key} header.
 */
package com.payorch.idempotency.api;
