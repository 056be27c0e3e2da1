-- Contract v3, "customer action (3-D Secure and redirects)" (issue 24): a payment may wait for its customer.

alter table payments drop constraint payments_status_check;
alter table payments add constraint payments_status_check check (status in
    ('PENDING', 'PROCESSING', 'REQUIRES_ACTION', 'AUTHORIZED', 'CAPTURING', 'COMPLETED', 'FAILED', 'CANCELLED'));

alter table payment_attempts drop constraint payment_attempts_status_check;
alter table payment_attempts add constraint payment_attempts_status_check check (status in
    ('PENDING', 'PROCESSING', 'REQUIRES_ACTION', 'AUTHORIZED', 'SUCCEEDED', 'FAILED', 'CANCELLED'));

-- return_url: the merchant's, as given on create (validated by the API); null: the customer cannot act.
-- next_action_url: the connector's page the customer is sent to while REQUIRES_ACTION.
-- action_required_at: when the payment last entered REQUIRES_ACTION; the expiry counts from it.
alter table payments
    add column return_url         text check (char_length(return_url) <= 2000),
    add column next_action_url    text,
    add column action_required_at timestamptz;

-- A payment waiting for its customer holds its booking (409 booking_payment_in_progress for another).
drop index payments_one_live_payment_per_booking;
create unique index payments_one_live_payment_per_booking
    on payments (merchant_id, booking_id)
    where status in ('PENDING', 'PROCESSING', 'REQUIRES_ACTION', 'AUTHORIZED', 'CAPTURING', 'COMPLETED')
       or (status = 'CANCELLED' and authorized_at is not null);

-- The expiry job looks at payments waiting for their customer; the cancel recovery also at those it cancels.
create index payments_awaiting_customer on payments (action_required_at) where status = 'REQUIRES_ACTION';
drop index payments_cancel_requested;
create index payments_cancel_requested on payments (cancel_requested_at)
    where cancel_requested_at is not null and status in ('PENDING', 'PROCESSING', 'REQUIRES_ACTION', 'AUTHORIZED');
