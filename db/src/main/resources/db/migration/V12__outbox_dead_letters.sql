-- Dead letters: an event whose delivery failed payments.outbox.max-attempts times is parked (parked_at set) and no
-- longer claimed by the relay, until an operator requeues it (parked_at cleared, attempts reset to 0).
alter table events add column parked_at timestamptz;

-- The relay's queue without parked events, so its scan never reads past a pile of dead letters. Same columns as
-- V4's index; the claim's WHERE repeats this predicate so the planner can use it.
create index events_relay_queue_v20 on events (seq) include (next_attempt_at, claimed_until)
    where dispatched_at is null and parked_at is null;
drop index events_relay_queue;
alter index events_relay_queue_v20 rename to events_relay_queue;

-- The operator's list of dead letters (few rows; partial).
create index events_parked on events (parked_at, seq) where dispatched_at is null and parked_at is not null;
