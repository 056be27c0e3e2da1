/**
 * The transactional outbox: events written with the change they report.
 */
package com.payorch.events;
