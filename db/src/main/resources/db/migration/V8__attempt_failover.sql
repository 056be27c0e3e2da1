-- Failover between connectors (issue #9). An attempt may move to the next connector of its route only when no
-- submission of it to its current connector can have taken the money. sends_in_doubt counts the submissions to the
-- current connector that began and have not ended with a definite "not charged" (connection refused, name not
-- resolved, an authentication or configuration refusal): it grows before each submission and shrinks after a
-- definite "not charged". A time-out, a 5xx or a crash leaves it above zero, and the attempt then stays on that
-- connector for good. Moving to the next connector resets it, in the same statement that records the new connector.
alter table payment_attempts add column sends_in_doubt integer not null default 0;
