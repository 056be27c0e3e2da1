/**
 * Background recovery: resubmit stuck PENDING payments (and give up on them), settle stuck PROCESSING ones, resend
 * the holds' captures and cancels without an outcome, apply the expiry policy to holds about to lapse, expire
 * customer actions waited on too long.
 */
package com.payorch.recovery;
