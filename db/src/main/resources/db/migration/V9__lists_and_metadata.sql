-- Lists (GET /v1/payments, GET /v1/events) are pages walked by keyset, never by OFFSET: each filter combination the
-- API offers has an index whose order is the list's order, so a page reads about `limit` index entries whatever
-- the table's size.

-- A payment's metadata: at most 20 string members, validated by the API before it gets here.
alter table payments add column metadata jsonb not null default '{}';

-- GET /v1/payments: newest first, keyset (created_at, id), scanned backwards. Without a filter, with `status`,
-- with `bookingId` (which also serves the booking guard's look-up, replacing V1's payments_by_booking).
create index payments_list on payments (merchant_id, created_at, id);
create index payments_list_by_status on payments (merchant_id, status, created_at, id);
create index payments_list_by_booking on payments (merchant_id, booking_id, created_at, id);
drop index payments_by_booking;

-- GET /v1/events: oldest first, keyset seq. events_by_merchant (merchant_id, seq) and events_by_payment
-- (payment_id, seq) exist since V1; these serve the `bookingId` and `type` filters.
create index events_by_booking on events (merchant_id, booking_id, seq);
create index events_by_type on events (merchant_id, type, seq);
