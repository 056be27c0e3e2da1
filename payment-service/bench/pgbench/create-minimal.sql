-- The limit a create chases: the minimal sequence of one POST /v1/payments, one statement per transaction, i.e.
-- the smallest number of commits (each a WAL flush) the guarantees allow, with the rows a create must write:
--   (1) the key claimed with the payment, its booking, transition, attempt and event (before the gateway call, so a
--       crash during the call leaves a payment that recovery finds and a key the client's retry resumes);
--   (2) the gateway's own write (here the sandbox charge);
--   (3) the outcome with the stored response (after the call).
-- Since the fold of the key claim into (1) this is also what the service sends (create.sql is the same three
-- statements with the service's exact SQL and guards); this file strips them to their writes (no guards, no
-- ON CONFLICT fallbacks, no RETURNING), so create.sql ÷ create-minimal.sql shows what the guards cost and
-- service ÷ create-minimal.sql how far the create is from the database's floor.
-- Run like create.sql: pgbench -n -M prepared -c C -j J -T S -f create-minimal.sql <database migrated by Flyway>.
\set r random(1, 9000000000000000000)

with claimed as (
    insert into idempotency_keys (merchant_id, idempotency_key, fingerprint, request_method, request_path,
        recovery_point, resource_id, locked_by, locked_until, created_at, expires_at)
    values ('pgbench-min', 'k' || :r::text, '5838f6c9e9d1d60d386e641c6ec56e419368e15baedadf2127c3fd69659a68b0',
        'POST', '/v1/payments', 'PAYMENT_CREATED', 'pay_m' || lpad(:r::text, 23, '0'), md5(:r::text)::uuid,
        now() + interval '30 seconds', now(), now() + interval '1 day')),
booking as (
    insert into bookings (merchant_id, id, status, version, created_at, updated_at)
    values ('pgbench-min', 'b' || :r::text, 'AWAITING_PAYMENT', 1, now(), now())),
payment as (
    insert into payments (id, merchant_id, booking_id, amount, currency, payment_method, status, attempt, connector,
        version, created_at, updated_at)
    values ('pay_m' || lpad(:r::text, 23, '0'), 'pgbench-min', 'b' || :r::text, 12000, 'JPY', 'pm_card_ok',
        'PENDING', 1, 'sandbox', 1, now(), now())),
transition as (
    insert into payment_transitions (payment_id, from_status, to_status, event, source, source_id, at)
    values ('pay_m' || lpad(:r::text, 23, '0'), null, 'PENDING', 'CREATE', 'api', 'k' || :r::text, now())),
attempt as (
    insert into payment_attempts (payment_id, number, connector, status, created_at)
    values ('pay_m' || lpad(:r::text, 23, '0'), 1, 'sandbox', 'PENDING', now()))
insert into events (id, merchant_id, type, payment_id, booking_id, data, created_at)
values ('evt_mc' || lpad(:r::text, 22, '0'), 'pgbench-min', 'payment.created', 'pay_m' || lpad(:r::text, 23, '0'),
    'b' || :r::text, '{"status": "PENDING", "version": 1, "amount": 12000, "currency": "JPY"}', now());

insert into sandbox_charges (id, payment_id, attempt, amount, currency, payment_method, status, created_at,
    updated_at)
values ('ch_m' || lpad(:r::text, 23, '0'), 'pay_m' || lpad(:r::text, 23, '0'), 1, 12000, 'JPY', 'pm_card_ok',
    'processing', now(), now());

with finished as (
    update idempotency_keys
    set recovery_point = 'FINISHED', response_status = 201, response_headers = '{"ETag": "\"2\""}'::jsonb,
        response_body = convert_to(repeat('x', 490), 'UTF8'), locked_by = null, locked_until = null
    where merchant_id = 'pgbench-min' and idempotency_key = 'k' || :r::text),
changed as (
    update payments set status = 'PROCESSING', version = 2, updated_at = now(), changed_at = now()
    where id = 'pay_m' || lpad(:r::text, 23, '0')),
transition as (
    insert into payment_transitions (payment_id, from_status, to_status, event, source, source_id, at)
    values ('pay_m' || lpad(:r::text, 23, '0'), 'PENDING', 'PROCESSING', 'SUBMIT', 'api', 'k' || :r::text, now())),
attempt as (
    update payment_attempts set status = 'PROCESSING', reference = 'ch_m' || lpad(:r::text, 23, '0')
    where payment_id = 'pay_m' || lpad(:r::text, 23, '0') and number = 1)
insert into events (id, merchant_id, type, payment_id, booking_id, data, created_at)
values ('evt_mp' || lpad(:r::text, 22, '0'), 'pgbench-min', 'payment.processing', 'pay_m' || lpad(:r::text, 23, '0'),
    'b' || :r::text, '{"status": "PROCESSING", "version": 2, "amount": 12000, "currency": "JPY"}', now());
