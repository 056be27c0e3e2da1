-- Merchant webhooks: one row per attempt to deliver an event to its merchant's webhook-url.
--
-- attempt         1 for the first delivery of the event, then one more per retry or redelivery
-- status          pending (due at due_at, or being sent), succeeded (2xx in time) or failed (this attempt failed;
--                 the next one, if any, is its own row)
-- claimed_by      the dispatcher batch sending it now; its result update is fenced by this token
-- claimed_until   the claim's lease: after it, another instance may send the attempt
-- response_status the receiver's HTTP status, when it answered
-- error           why the attempt failed (status, time-out, connection error); never a secret or a body
-- at              when the attempt was made (or, while pending, when it is due)
create table webhook_deliveries (
    id               text        primary key,
    event_id         text        not null references events (id),
    merchant_id      text        not null,
    attempt          integer     not null check (attempt >= 1),
    status           text        not null check (status in ('pending', 'succeeded', 'failed')),
    due_at           timestamptz not null,
    claimed_by       uuid,
    claimed_until    timestamptz,
    response_status  integer,
    error            text,
    at               timestamptz not null,
    created_at       timestamptz not null default now(),
    unique (event_id, attempt)
);

-- The dispatcher's queue: pending attempts by due time.
create index webhook_deliveries_due on webhook_deliveries (due_at) include (claimed_until) where status = 'pending';
