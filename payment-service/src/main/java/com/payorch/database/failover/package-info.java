/**
 * Following a promoted standby: the connections of a server that turned read-only (a primary demoted or fenced during
 * a failover) are dropped from the pool, so that the multi-host URL's {@code targetServerType=primary} opens the next
 * ones on the new primary (docs/operations.md, "Running on a primary with a standby").
 */
package com.payorch.database.failover;
