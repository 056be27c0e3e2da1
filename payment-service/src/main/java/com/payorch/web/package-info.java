/**
 * HTTP infrastructure: problem responses (and the one mapping of the domain's exceptions), strict JSON, body limit.
 */
package com.payorch.web;
