-- Wake-ups for idle background jobs (WorkNotifications): a row of new work notifies the channel
-- 'payorch_work.<schema>' with the job's topic, so an instance whose job is asleep runs it at once instead of at its
-- next poll. The notification is sent in the inserting transaction and delivered when it commits.
--
-- Only when the job may be asleep: a transaction that notifies takes a database-wide lock from its commit's start
-- until its WAL flush is done, so notifying commits run one at a time (fdatasync took about 0.7 ms on the 2-core
-- benchmark machine: a notification in every create would cap creates near 1,500 / s ÷ 3). Each trigger therefore
-- skips the notification when other work of the same kind is already waiting unclaimed: that work's own
-- notification (or the job's full batches, or its next-due wake-up) brings the job round, and the poll interval
-- stays the bound for the rare race left (a waiting row claimed just before this one commits).

-- Outbox: skip when another recent (within 1 s of this one) event is waiting, never claimed and never failed. Only
-- the newest 20 undispatched events are looked at (the relay's partial index, newest first), so a backlog of
-- held-back or backed-off events costs nothing and never silences the notifications for long.
-- Row triggers run after their statement, so the rows of one statement see each other: a transaction's first
-- single-row insert notifies for the transaction, and a statement that inserts several events at once (the service
-- has none; RelayDrainTest's bulk insert is one) notifies nothing and waits for the poll.
create function notify_outbox_work() returns trigger language plpgsql as $$
begin
    if not exists (
        select 1 from (
            select e.claimed_until, e.next_attempt_at, e.created_at from events e
            where e.dispatched_at is null and e.parked_at is null and e.seq <> new.seq
            order by e.seq desc
            limit 20) recent
        where recent.claimed_until is null and recent.next_attempt_at is null
          and recent.created_at > new.created_at - interval '1 second') then
        perform pg_notify('payorch_work.' || tg_table_schema, 'outbox');
    end if;
    return null;
end
$$;

create trigger events_wake_outbox_relay after insert on events
    for each row execute function notify_outbox_work();

-- Sandbox settlement: skip when another charge is waiting to be settled (the settlement job then wakes itself when
-- the earliest one is due, and settles later ones in the same or a following run).
create function notify_sandbox_work() returns trigger language plpgsql as $$
begin
    if not exists (select 1 from sandbox_charges c where c.status = 'processing' and c.id <> new.id) then
        perform pg_notify('payorch_work.' || tg_table_schema, 'sandbox');
    end if;
    return null;
end
$$;

create trigger sandbox_charges_wake_settlement after insert on sandbox_charges
    for each row execute function notify_sandbox_work();

-- Merchant webhooks: skip when another attempt is due and unclaimed (the delivery job takes it with this one).
create function notify_merchant_webhook_work() returns trigger language plpgsql as $$
begin
    if new.status = 'pending' and new.due_at <= now() and not exists (
        select 1 from webhook_deliveries d
        where d.status = 'pending' and d.due_at <= now() and d.claimed_until is null and d.id <> new.id) then
        perform pg_notify('payorch_work.' || tg_table_schema, 'merchant_webhooks');
    end if;
    return null;
end
$$;

create trigger webhook_deliveries_wake_dispatcher after insert on webhook_deliveries
    for each row execute function notify_merchant_webhook_work();
