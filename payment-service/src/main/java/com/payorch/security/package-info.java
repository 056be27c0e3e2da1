/**
 * API keys per merchant and the bearer-token filter chain.
 */
package com.payorch.security;
