/**
 * Booking confirmation e-mails, exactly one per activated booking.
 */
package com.payorch.confirmations;
