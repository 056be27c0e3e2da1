/**
 * Graceful shutdown: readiness turns false first, background claims are given back at once (jobs/ClaimRelease), and
 * the web server lets in-flight requests finish (server.shutdown=graceful) before the process exits.
 */
package com.payorch.shutdown;
