-- Payments, their history, bookings, idempotency keys and the event outbox.
-- Every mutable row carries a version that writers check (UPDATE ... WHERE version = :expected).

create table payments (
    id              text        primary key,
    merchant_id     text        not null,
    booking_id      text        not null,
    amount          bigint      not null check (amount between 1 and 100000000000),
    currency        char(3)     not null,
    payment_method  text        not null,
    customer_email  text,
    description     text,
    status          text        not null check (status in ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED')),
    failure_reason  text,
    -- 1 for the first submission; each RETRY starts a new gateway attempt (a new charge at the gateway).
    attempt         integer     not null default 1 check (attempt >= 1),
    version         bigint      not null check (version >= 1),
    created_at      timestamptz not null,
    updated_at      timestamptz not null
);

-- The booking guard in the database: at most one PENDING/PROCESSING/COMPLETED payment per merchant's booking.
create unique index payments_one_live_payment_per_booking
    on payments (merchant_id, booking_id)
    where status in ('PENDING', 'PROCESSING', 'COMPLETED');

create index payments_by_booking on payments (merchant_id, booking_id, created_at desc);

-- Recovery jobs look for payments stuck in a non-terminal state.
create index payments_unsettled on payments (status, updated_at) where status in ('PENDING', 'PROCESSING');

create table payment_transitions (
    id           bigint generated always as identity primary key,
    payment_id   text        not null references payments (id),
    from_status  text,
    to_status    text        not null,
    event        text        not null,
    source       text        not null check (source in ('api', 'webhook', 'recovery', 'reconciler')),
    source_id    text,
    at           timestamptz not null
);

create index payment_transitions_by_payment on payment_transitions (payment_id, id);

create table bookings (
    merchant_id   text        not null,
    id            text        not null,
    status        text        not null check (status in ('AWAITING_PAYMENT', 'ACTIVE')),
    payment_id    text        references payments (id),
    activated_at  timestamptz,
    version       bigint      not null check (version >= 1),
    created_at    timestamptz not null,
    updated_at    timestamptz not null,
    primary key (merchant_id, id)
);

-- One row per (merchant, Idempotency-Key). recovery_point records the last committed step of the request:
-- STARTED -> PAYMENT_CREATED -> FINISHED. locked_by/locked_until say which request attempt owns the key.
create table idempotency_keys (
    merchant_id       text        not null,
    idempotency_key   text        not null,
    fingerprint       text        not null,
    request_method    text        not null,
    request_path      text        not null,
    recovery_point    text        not null check (recovery_point in ('STARTED', 'PAYMENT_CREATED', 'FINISHED')),
    payment_id        text        references payments (id) deferrable initially deferred,
    locked_by         uuid,
    locked_until      timestamptz,
    response_status   integer,
    response_headers  jsonb,
    response_body     bytea,
    created_at        timestamptz not null,
    expires_at        timestamptz not null,
    primary key (merchant_id, idempotency_key)
);

create index idempotency_keys_expiry on idempotency_keys (expires_at);

-- The transactional outbox: written in the same transaction as the change it reports.
create table events (
    seq            bigint generated always as identity unique,
    id             text        primary key,
    merchant_id    text        not null,
    type           text        not null,
    payment_id     text        references payments (id),
    booking_id     text,
    data           jsonb       not null,
    created_at     timestamptz not null,
    dispatched_at  timestamptz
);

create index events_by_merchant on events (merchant_id, seq);
create index events_by_payment on events (payment_id, seq);
create index events_undispatched on events (seq) where dispatched_at is null;
