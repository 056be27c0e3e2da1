-- Contract v3, "the PSP's word is never dropped" (issue 22): exact binding of notifications, connector key lifetimes.

-- A notification about an object this service did not create (Stripe: no or an unknown metadata.payment_id) is
-- answered 200 "ignored" and recorded like any other receipt (its redeliveries count as duplicates): it has no payment.
alter table webhook_receipts alter column payment_id drop not null;

-- Database clock: when the attempt came to its current connector (its creation, or its failover). A connector's
-- idempotency key lives from the first send there, never earlier, so "now - connector_since < the connector's key
-- lifetime" never resends a key the connector may have forgotten.
alter table payment_attempts add column connector_since timestamptz;
update payment_attempts set connector_since = started_at;
alter table payment_attempts alter column connector_since set default now();
alter table payment_attempts alter column connector_since set not null;
