-- Every gateway webhook applied, ignored or rejected, once per webhook id: the primary key is what makes
-- redeliveries (which come for days, from any instance, racing each other) duplicates.
create table webhook_receipts (
    webhook_id    text        primary key,
    gateway       text        not null,
    type          text        not null,
    payment_id    text        not null references payments (id),
    outcome       text        not null check (outcome in ('applied', 'ignored', 'rejected')),
    detail        text,
    received_at   timestamptz not null
);

create index webhook_receipts_by_payment on webhook_receipts (payment_id, received_at);

-- Short leases on background work items (resubmitting a PENDING payment, settling a PROCESSING one), so that
-- several service instances never work on the same item at once. A lease that runs out frees the item.
create table work_claims (
    kind           text        not null,
    item_id        text        not null,
    claimed_by     uuid        not null,
    claimed_until  timestamptz not null,
    primary key (kind, item_id)
);
