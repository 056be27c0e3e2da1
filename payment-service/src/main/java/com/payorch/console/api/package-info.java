/**
 * The console's HTTP side: page controllers (Thymeleaf views), the confirmation-then-action controllers, the
 * server-sent event stream of a payment page, and the console's HTML error pages (the API keeps problem+json).
 */
package com.payorch.console.api;
