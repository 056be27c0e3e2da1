/**
 * The embedded PostgreSQL used when no external database is configured.
 */
package com.payorch.database;
