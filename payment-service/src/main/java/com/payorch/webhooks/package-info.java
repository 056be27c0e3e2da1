/**
 * Connector-neutral webhook ingestion: verify, receipt, match to an attempt, apply; one adapter per connector.
 */
package com.payorch.webhooks;
