package com.payorch.hostile;

/**
 * What the contract-v3 categories aim at, set up by the test before the run, each in a state that every hostile
 * request must leave alone.
 *
 * @param hold               an AUTHORIZED manual-capture payment of the test's merchant (a valid capture or cancel
 *                           would change it: such a request always carries a stale {@code If-Match})
 * @param holdAmount         its amount, all of it capturable
 * @param holdVersion        its version (its ETag is {@code "<version>"})
 * @param awaitingCustomer   a REQUIRES_ACTION payment (automatic capture) of the test's merchant, waiting on the
 *                           sandbox's page: a valid complete would change it, so it always carries a stale
 *                           {@code If-Match}
 * @param awaitingVersion    its version
 * @param completedVersion   the version of {@link HostileRequests.Targets#completedPayment()}
 * @param waitingCharge      the sandbox charge of {@code awaitingCustomer}, waiting for the customer's decision
 * @param settledCharge      the sandbox charge of the completed payment: its page may not be decided any more
 * @param dispute            an OPEN dispute of the completed payment, opened by {@code disputeWebhookBody}
 * @param foreignDispute     a dispute of another merchant's payment
 * @param disputeWebhookId   the applied sandbox {@code dispute.opened} webhook (replayed: duplicate)
 * @param disputeWebhookBody its body
 */
record V3Targets(String hold, long holdAmount, long holdVersion, String awaitingCustomer, long awaitingVersion,
                 long completedVersion, String waitingCharge, String settledCharge, String dispute,
                 String foreignDispute, String disputeWebhookId, String disputeWebhookBody) {
}
