-- Contract v3, "Refunds in doubt and reversed" (issue 22).

-- A refund the connector reversed after it SUCCEEDED (REVERSE: SUCCEEDED -> FAILED) says when; an orphaned charge's
-- refund that failed is followed by a new one, a reversed one is not (it needs a person).
alter table refunds add column reversed_at timestamptz;

-- The refund of an orphaned charge is never given up: when it FAILED, a new refund row (a new refund id, so a new
-- idempotency key at the connector, which would only answer the failed refund again for the old one) is made after a
-- backoff. At most one of them is live (PENDING or SUCCEEDED) per orphaned attempt: the charge is given back once.
drop index refunds_one_per_orphaned_attempt;
create unique index refunds_one_live_per_orphaned_attempt on refunds (payment_id, attempt)
    where not counts_against_payment and status <> 'FAILED';
