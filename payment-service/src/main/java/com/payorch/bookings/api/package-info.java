/**
 * {@code GET /v1/bookings/{id}}.
 */
package com.payorch.bookings.api;
