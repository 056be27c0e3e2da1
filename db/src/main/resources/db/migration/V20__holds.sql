-- Contract v3, "authorise now, capture later, cancel" (issue 23): manual-capture payments (holds).

alter table payments drop constraint payments_status_check;
alter table payments add constraint payments_status_check check (status in
    ('PENDING', 'PROCESSING', 'AUTHORIZED', 'CAPTURING', 'COMPLETED', 'FAILED', 'CANCELLED'));

alter table payment_attempts drop constraint payment_attempts_status_check;
alter table payment_attempts add constraint payment_attempts_status_check check (status in
    ('PENDING', 'PROCESSING', 'AUTHORIZED', 'SUCCEEDED', 'FAILED', 'CANCELLED'));

-- capture_amount: the amount of the capture sent and not settled yet (CAPTURING), else null.
-- captures: how many captures were sent; the connector idempotency key of capture n names n, so a capture resent
--   after a lost answer is the same capture, and one sent after a refused capture is a new one.
-- amount_captured: the money taken (the whole amount for an automatic payment once COMPLETED); refunds reserve
--   against it, never against the authorised amount.
-- cancel_requested_at: a cancel won the race against any capture (one statement, versioned) and is being sent; the
--   recovery job resends it (same connector key) until the connector confirms.
alter table payments
    add column capture_method           text        not null default 'automatic'
        check (capture_method in ('automatic', 'manual')),
    add column amount_captured          bigint      not null default 0,
    add column capture_amount           bigint,
    add column captures                 integer     not null default 0 check (captures >= 0),
    add column authorized_at            timestamptz,
    add column authorization_expires_at timestamptz,
    add column cancel_requested_at      timestamptz,
    add column cancel_reason            text;

update payments set amount_captured = amount where status = 'COMPLETED';

alter table payments drop constraint payments_refunds_within_amount;
alter table payments add constraint payments_refunds_within_captured check (
    amount_captured between 0 and amount
    and (capture_amount is null or capture_amount between 1 and amount)
    and amount_reserved between 0 and amount_captured
    and amount_refunded between 0 and amount_reserved);

-- The booking guard covers holds: an AUTHORIZED or CAPTURING payment holds its booking. A hold that was authorised
-- and then released (CANCELLED with authorized_at) cancelled the booking it activated and keeps it, as a refunded
-- COMPLETED payment keeps its cancelled booking: no later payment takes a cancelled booking (409 booking_cancelled).
drop index payments_one_live_payment_per_booking;
create unique index payments_one_live_payment_per_booking
    on payments (merchant_id, booking_id)
    where status in ('PENDING', 'PROCESSING', 'AUTHORIZED', 'CAPTURING', 'COMPLETED')
       or (status = 'CANCELLED' and authorized_at is not null);

-- The expiry job and the capture recovery look at holds; the cancel recovery at cancels not yet confirmed.
create index payments_held on payments (status, authorization_expires_at) where status in ('AUTHORIZED', 'CAPTURING');
create index payments_cancel_requested on payments (cancel_requested_at)
    where cancel_requested_at is not null and status in ('PENDING', 'PROCESSING', 'AUTHORIZED');
