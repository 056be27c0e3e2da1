-- The built-in sandbox gateway keeps its charges in the same database, but apart from the payment tables:
-- it plays an external system, so no foreign key ties it to payments. One charge per gateway idempotency key
-- (payment id and attempt), whichever service instance submits it.
create table sandbox_charges (
    id               text        primary key,
    payment_id       text        not null,
    attempt          integer     not null,
    amount           bigint      not null,
    currency         char(3)     not null,
    payment_method   text        not null,
    status           text        not null check (status in ('processing', 'succeeded', 'failed')),
    failure_reason   text,
    created_at       timestamptz not null,
    updated_at       timestamptz not null,
    unique (payment_id, attempt)
);
