-- The sandbox's 3-D Secure (issue 24): a charge made with pm_card_3ds or pm_card_3ds_declined for a payment with a
-- returnUrl waits in 'requires_action' until the customer decides on the sandbox's page, which sends them back to
-- return_url (the merchant's returnUrl with payment_id added). Such a charge is not settled by the settlement job
-- and owes no webhook until the customer (or a cancel) settles it.
alter table sandbox_charges drop constraint sandbox_charges_status_check;
alter table sandbox_charges add constraint sandbox_charges_status_check check (status in
    ('processing', 'requires_action', 'authorized', 'capturing', 'capture_failed', 'succeeded', 'failed',
     'cancelled'));

alter table sandbox_charges add column return_url text;

-- Each page token (signed nonce) is used at most once, whichever instance receives the form: the page's POST
-- inserts its nonce in the statement that settles the charge.
create table sandbox_page_tokens (
    nonce     text        primary key,
    charge_id text        not null references sandbox_charges (id) on delete cascade,
    used_at   timestamptz not null
);

create index sandbox_page_tokens_charge on sandbox_page_tokens (charge_id);
