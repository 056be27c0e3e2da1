-- A redelivered webhook is answered as a duplicate and applied no second time; until now it left no trace, so the
-- operations console could not show it. Each receipt counts its duplicates and keeps the time of the latest one.
-- (A column with a constant default is added without rewriting the table.)
alter table webhook_receipts
    add column duplicates        integer     not null default 0,
    add column last_duplicate_at timestamptz;
