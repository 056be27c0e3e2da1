/**
 * Standard Webhooks secrets, signatures and their verification.
 */
package com.payorch.signing;
