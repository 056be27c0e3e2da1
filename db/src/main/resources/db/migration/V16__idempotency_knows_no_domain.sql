-- Idempotency knows no domain (issue 21): a key row stores the recovery point its caller names and the id of the
-- resource the caller committed at that point (resource_id), with no foreign key to the caller's tables. STARTED and
-- FINISHED stay the idempotency module's own; any other recovery point is the caller's word.
--
-- Existing rows keep working: the payments flows name their steps as before (PAYMENT_CREATED, REFUND_CREATED), so
-- recovery_point keeps its values, and resource_id takes the id the row's step committed: the refund's for a refund
-- request (REFUND_CREATED, or FINISHED after it), else the payment's. A refund's key no longer names the payment
-- too: the refund row does, and resuming a refund request never needed it.
--
-- Why the foreign keys can go. They were DEFERRABLE INITIALLY DEFERRED because the create writes its key in the
-- same statement as its payment, so they were only ever checked at commit, and nothing relied on that check:
-- * a key never names a row that did not commit with it: the create writes key and payment in one statement; a
--   later step (IdempotentPaymentFlow STARTED -> PAYMENT_CREATED, IdempotentRefundFlow STARTED -> REFUND_CREATED)
--   records its resource in the transaction that writes the resource, so a rollback takes both, and an advance
--   whose claim was lost (locked_by) fails that same transaction;
-- * payments and refunds are never deleted, so a key cannot outlive its resource;
-- * should a resumed key ever name a missing row, the flow refuses to go on ("payment ... vanished") where the
--   commit used to fail on the constraint; the connector call is keyed by the payment id and attempt (or the refund
--   id), so neither path can charge or refund twice.
-- The check also took a KEY SHARE lock on the payment (or refund) row at commit; no writer waited for it on purpose
-- (writers compare the row's version).
alter table idempotency_keys add column resource_id text;

update idempotency_keys set resource_id = coalesce(refund_id, payment_id)
where refund_id is not null or payment_id is not null;

-- Dropping the columns drops their foreign keys.
alter table idempotency_keys drop column refund_id;
alter table idempotency_keys drop column payment_id;

alter table idempotency_keys drop constraint idempotency_keys_recovery_point_check;
alter table idempotency_keys add constraint idempotency_keys_recovery_point_check check (recovery_point <> '');
