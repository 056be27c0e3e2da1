-- Attempts: a payment's first submission is attempt 1, every RETRY starts the next. Gateway outcomes (from the
-- live submit, webhooks and the reconciler) name their attempt and change the payment only while it is current.
create table payment_attempts (
    payment_id      text        not null references payments (id),
    number          integer     not null check (number >= 1),
    connector       text        not null,
    -- the connector's id for this attempt's charge (ch_… sandbox, pi_… Stripe, pspReference Adyen), once known
    reference       text,
    status          text        not null check (status in ('PENDING', 'PROCESSING', 'SUCCEEDED', 'FAILED')),
    failure_reason  text,
    -- set once, when a superseded attempt turned out to have taken the money (charge.orphaned written then)
    orphaned_at     timestamptz,
    -- service clock, shown in the API
    created_at      timestamptz not null,
    -- database clock: what give-up-after is measured against
    started_at      timestamptz not null default now(),
    primary key (payment_id, number)
);

create unique index payment_attempts_by_reference on payment_attempts (connector, reference)
    where reference is not null;

insert into payment_attempts (payment_id, number, connector, reference, status, failure_reason, created_at)
select p.id, p.attempt, 'sandbox', c.id,
       case p.status when 'PENDING' then 'PENDING' when 'PROCESSING' then 'PROCESSING'
                     when 'COMPLETED' then 'SUCCEEDED' else 'FAILED' end,
       p.failure_reason, p.updated_at
from payments p
left join sandbox_charges c on c.payment_id = p.id and c.attempt = p.attempt;

-- The current attempt's connector, on the payment row so that a change needs no extra read.
alter table payments add column connector text not null default 'sandbox';

-- The database clock's time of the payment's last change: the recovery jobs compare it with now(), never a time
-- written by a service instance's own clock.
alter table payments add column changed_at timestamptz not null default now();

drop index payments_unsettled;
create index payments_unsettled on payments (status, changed_at) where status in ('PENDING', 'PROCESSING');
