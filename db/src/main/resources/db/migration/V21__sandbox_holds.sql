-- The sandbox's holds (issue 23): a manual-capture charge is authorised at settlement, captured later (one capture
-- key at a time; settled webhook-delay after it was requested, like a charge) or released. A charge whose state moves
-- on after its webhooks were delivered owes the webhooks of its new state: the statements that move it clear
-- webhooks_finished_at.
alter table sandbox_charges drop constraint sandbox_charges_status_check;
alter table sandbox_charges add constraint sandbox_charges_status_check check (status in
    ('processing', 'authorized', 'capturing', 'capture_failed', 'succeeded', 'failed', 'cancelled'));

alter table sandbox_charges
    add column capture_method       text        not null default 'automatic'
        check (capture_method in ('automatic', 'manual')),
    add column captures             integer     not null default 0,
    add column capture_key          text,
    add column capture_amount       bigint,
    add column capture_requested_at timestamptz,
    add column amount_captured      bigint;

create index sandbox_charges_capturing on sandbox_charges (capture_requested_at) where status = 'capturing';

-- A capture wakes the settlement job as a new charge does.
create function notify_sandbox_capture() returns trigger language plpgsql as $$
begin
    if new.status = 'capturing' and old.status is distinct from 'capturing' then
        perform pg_notify('payorch_work.' || tg_table_schema, 'sandbox');
    end if;
    return null;
end
$$;

create trigger sandbox_charges_wake_capture after update of status on sandbox_charges
    for each row execute function notify_sandbox_capture();
