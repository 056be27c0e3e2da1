-- Contract v3, disputes (issue 25): a chargeback the card holder's bank opened against a payment, as its connector
-- reports it. Each connector report is applied once (dispute_reports' primary key); the dispute is found by the
-- connector's own id of it (connector, connector_reference), so reports arriving out of order meet on one row.
create table disputes (
    id                  text        primary key,
    merchant_id         text        not null,
    payment_id          text        not null references payments (id),
    attempt             int         not null,
    connector           text        not null,
    connector_reference text        not null,
    amount              bigint      not null check (amount > 0),
    currency            text        not null,
    status              text        not null check (status in ('OPEN', 'WON', 'LOST')),
    reason              text,
    evidence_due_by     timestamptz,
    version             bigint      not null default 1,
    created_at          timestamptz not null,
    updated_at          timestamptz not null,
    unique (connector, connector_reference)
);

create index disputes_merchant_status_created on disputes (merchant_id, status, created_at, id);
create index disputes_merchant_created on disputes (merchant_id, created_at, id);
create index disputes_payment on disputes (payment_id);
-- The console's "needs attention" counts and lists the open ones by evidence due date.
create index disputes_open_due on disputes (evidence_due_by) where status = 'OPEN';

create table dispute_reports (
    connector  text,
    report_id  text,
    dispute_id text        references disputes (id),
    applied_at timestamptz not null,
    primary key (connector, report_id)
);

-- The sum of the amounts of the payment's OPEN and LOST disputes (the money the bank holds or took back), written
-- in the same transaction as the dispute; a refund may not give back what a dispute holds.
alter table payments
    add column amount_disputed bigint not null default 0;
