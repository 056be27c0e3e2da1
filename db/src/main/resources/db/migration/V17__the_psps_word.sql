-- Contract v3, "the PSP's word is never dropped" (issue 22).

-- Why an attempt needs a person, set by recovery when it cannot get evidence (a give-up without a confirmed "no
-- charge", an attempt past its connector's key lifetime that no look-up settles, a cancel by reference not yet
-- confirmed), cleared when the attempt is settled. The console lists them; a metric counts them.
alter table payment_attempts add column attention_reason text;
alter table payment_attempts add column attention_since timestamptz;

-- A refund in doubt: a send whose answer was lost counts here, so a later definite refusal of a resend is not taken
-- as "no refund" (the first send may have refunded); attention_reason says why a person must look.
alter table refunds add column sends_in_doubt integer not null default 0;
alter table refunds add column attention_reason text;
alter table refunds add column attention_since timestamptz;

-- Notifications whose signature matched no key (Adyen signs each item of a batch): not applied, kept for the console.
create table webhook_signature_failures (
    id          bigserial   primary key,
    connector   text        not null,
    merchant_id text,
    detail      text        not null,
    at          timestamptz not null default now()
);
create index webhook_signature_failures_recent on webhook_signature_failures (at desc);

create index payment_attempts_needing_attention on payment_attempts (attention_since)
    where attention_reason is not null;
create index refunds_needing_attention on refunds (attention_since) where attention_reason is not null;
