/**
 * Idempotency keys: fingerprints, claims with recovery points, stored responses, expiry.
 */
package com.payorch.idempotency;
