/**
 * The disputes HTTP API: reading disputes (they are created and settled by connector reports, never by a client).
 */
package com.payorch.disputes.api;
