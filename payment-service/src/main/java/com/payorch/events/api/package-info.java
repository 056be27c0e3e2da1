/**
 * {@code GET /v1/events}.
 */
package com.payorch.events.api;
