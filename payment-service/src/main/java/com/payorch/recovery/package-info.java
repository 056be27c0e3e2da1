/**
 * Background recovery: resubmit stuck PENDING payments (and give up on them), settle stuck PROCESSING ones.
 */
package com.payorch.recovery;
