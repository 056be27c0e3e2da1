/**
 * Bookings: created by their first payment, activated once by its COMPLETED transition.
 */
package com.payorch.bookings;
