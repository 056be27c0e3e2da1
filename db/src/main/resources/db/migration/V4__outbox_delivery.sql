-- Delivery of the outbox (events) to in-process consumers, at least once, shared by any number of instances.
--
-- attempts         deliveries started (counted when claimed, so a delivery whose process died counts too)
-- next_attempt_at  not due before this (exponential backoff after a failure); null: due now
-- claimed_by       the relay batch delivering it now; its later updates are fenced by this token
-- claimed_until    the claim's lease: after it, another relay may take the event over
-- last_error       the last failure's exception class and message, cut short; never a secret or a body
alter table events
    add column attempts        integer     not null default 0 check (attempts >= 0),
    add column next_attempt_at timestamptz,
    add column claimed_by      uuid,
    add column claimed_until   timestamptz,
    add column last_error      text;

-- The relay's queue: undispatched events in order, with the columns it filters on, so the scan skips events
-- that are backing off or claimed without reading the table. Replaces V1's index on the same rows.
create index events_relay_queue on events (seq) include (next_attempt_at, claimed_until)
    where dispatched_at is null;
drop index events_undispatched;

-- One confirmation e-mail per merchant's booking. A delivery claims the row (claimed_by/claimed_until) before
-- sending, so two deliveries of the same booking.activated never both send; sent_at is set, in the same
-- transaction as the booking.confirmation_sent event, once the mail server (or the log) has the message.
create table booking_confirmations (
    merchant_id    text        not null,
    booking_id     text        not null,
    payment_id     text        not null references payments (id),
    event_id       text        not null,   -- the booking.activated event it answers
    message_id     text        not null,   -- the e-mail's Message-ID, derived from event_id
    recipient      text        not null,
    claimed_by     uuid,
    claimed_until  timestamptz,
    sent_at        timestamptz,
    primary key (merchant_id, booking_id)
);
