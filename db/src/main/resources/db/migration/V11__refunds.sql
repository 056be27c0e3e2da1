-- Refunds (issue #10). The invariant "PENDING + SUCCEEDED refunds of a payment never exceed its amount" lives on the
-- payment row: amount_reserved is the sum of its PENDING and SUCCEEDED refunds, raised by the statement that inserts
-- a refund only when the result stays within the amount (a conditional UPDATE: concurrent inserts serialise on the
-- row lock and each re-checks the condition against the row the previous one committed). A FAILED refund gives its
-- amount back. amount_refunded is the sum of SUCCEEDED refunds. The CHECKs are the last line of defence.
alter table payments
    add column amount_reserved bigint not null default 0,
    add column amount_refunded bigint not null default 0,
    add constraint payments_refunds_within_amount
        check (amount_reserved between 0 and amount and amount_refunded between 0 and amount_reserved);

-- counts_against_payment is false for the refund of an orphaned charge (a superseded attempt that took money): it
-- gives back another charge than the payment's own, so it reserves nothing of the payment's amount.
create table refunds (
    id                     text        primary key,
    merchant_id            text        not null,
    payment_id             text        not null references payments (id),
    attempt                integer     not null,
    amount                 bigint      not null check (amount >= 1),
    currency               char(3)     not null,
    status                 text        not null check (status in ('PENDING', 'SUCCEEDED', 'FAILED')),
    reason                 text,
    failure_reason         text,
    connector              text        not null,
    charge_reference       text,
    connector_reference    text,
    counts_against_payment boolean     not null default true,
    version                bigint      not null check (version >= 1),
    created_at             timestamptz not null,
    updated_at             timestamptz not null,
    -- database clock of the last change: the reconciler compares it with now()
    changed_at             timestamptz not null default now()
);

create index refunds_by_payment on refunds (payment_id, created_at desc, id desc);
create index refunds_pending on refunds (changed_at) where status = 'PENDING';
create unique index refunds_by_connector_reference on refunds (connector, connector_reference)
    where connector_reference is not null;
-- at most one automatic refund per orphaned attempt
create unique index refunds_one_per_orphaned_attempt on refunds (payment_id, attempt) where not counts_against_payment;

-- An idempotent refund request records its refund here once the refund row is committed (recovery point
-- REFUND_CREATED).
alter table idempotency_keys add column refund_id text references refunds (id) deferrable initially deferred;
alter table idempotency_keys drop constraint idempotency_keys_recovery_point_check;
alter table idempotency_keys add constraint idempotency_keys_recovery_point_check
    check (recovery_point in ('STARTED', 'PAYMENT_CREATED', 'REFUND_CREATED', 'FINISHED'));

-- A booking whose payment was refunded in full is CANCELLED, once.
alter table bookings add column cancelled_at timestamptz;
alter table bookings drop constraint bookings_status_check;
alter table bookings add constraint bookings_status_check
    check (status in ('AWAITING_PAYMENT', 'ACTIVE', 'CANCELLED'));

-- The sandbox's refunds: one per refund id (the connector idempotency key), settled after webhook-delay.
create table sandbox_refunds (
    id                    text        primary key,
    refund_id             text        not null unique,
    charge_id             text        not null,
    payment_id            text        not null,
    amount                bigint      not null,
    currency              char(3)     not null,
    payment_method        text        not null,
    status                text        not null check (status in ('pending', 'succeeded', 'failed')),
    failure_reason        text,
    created_at            timestamptz not null,
    updated_at            timestamptz not null,
    webhooks_due          boolean     not null default false,
    webhooks_leased_until timestamptz,
    webhooks_finished_at  timestamptz,
    webhooks_outcome      text check (webhooks_outcome in ('delivered', 'gave_up'))
);

create index sandbox_refunds_to_settle on sandbox_refunds (created_at) where status = 'pending';
create index sandbox_refunds_webhooks_owed on sandbox_refunds (updated_at)
    where webhooks_due and webhooks_finished_at is null;

-- The cancellation e-mail of a booking, sent once per booking like its confirmation (booking_confirmations, V4):
-- claimed before sending, marked once sent.
create table booking_cancellation_emails (
    merchant_id    text        not null,
    booking_id     text        not null,
    payment_id     text        not null references payments (id),
    event_id       text        not null,   -- the booking.cancelled event it answers
    message_id     text        not null,   -- the e-mail's Message-ID, derived from event_id
    recipient      text        not null,
    claimed_by     uuid,
    claimed_until  timestamptz,
    sent_at        timestamptz,
    primary key (merchant_id, booking_id)
);
