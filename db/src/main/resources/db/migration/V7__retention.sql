-- Retention: webhook receipts, work claims and sandbox charges are deleted in batches once they are old enough
-- (payments.webhooks.receipt-retention, payments.recovery.claim-retention, payments.gateway.sandbox.retention).
-- Each delete picks its oldest rows by these indexes instead of reading the whole table.

create index webhook_receipts_by_age on webhook_receipts (received_at);

create index work_claims_by_expiry on work_claims (claimed_until);

-- Settled charges only: a charge still 'processing' is never deleted (sandbox_charges_to_settle covers those).
create index sandbox_charges_settled_by_age on sandbox_charges (created_at) where status <> 'processing';
