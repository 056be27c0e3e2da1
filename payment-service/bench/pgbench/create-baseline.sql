-- BASELINE SHAPE (commit 3784917, 20 statements): kept to reproduce the "before" figures; run.sh uses create.sql.
-- pgbench-equivalent of one POST /v1/payments (new key, new booking, sandbox gateway, webhooks off): the same
-- statements, in the same order and the same transactions as the service issues them (IdempotencyKeys,
-- IdempotentPaymentFlow, BookingGuard, PaymentStateChanges, PaymentStore, BookingStore, EventStore, SandboxGateway).
-- One pgbench "transaction" = one create, so pgbench's tps is creates per second at the database's limit.
-- Runs with -M prepared (the R2DBC driver also uses the extended protocol with cached prepared statements) in its
-- own database of the same PostgreSQL, created from the same Flyway migrations (see run.sh).
-- Values the service computes in Java (ids, timestamps, the stored response) are computed here in SQL from the
-- random r; the stored body has the size of the real one (about 490 bytes) but avoids ":name" (a pgbench variable).
-- Not included: the background work a create causes later (outbox relay marking 2 events dispatched, sandbox
-- settlement updating the charge), which the service does off the request path.
\set r random(1, 9000000000000000000)

-- (1) IdempotencyKeys.acquire -> insertNew (autocommit)
insert into idempotency_keys (merchant_id, idempotency_key, fingerprint, request_method, request_path,
    recovery_point, locked_by, locked_until, created_at, expires_at)
values ('pgbench', 'k' || :r::text, '5838f6c9e9d1d60d386e641c6ec56e419368e15baedadf2127c3fd69659a68b0', 'POST',
    '/v1/payments', 'STARTED', md5(:r::text)::uuid, now() + make_interval(secs => 30.0), now(),
    now() + make_interval(secs => 86400.0))
on conflict (merchant_id, idempotency_key) do nothing
returning 1;

-- (2) transaction A: BookingGuard.check, PaymentStateChanges.create, IdempotencyKeys.advanceToPaymentCreated
begin;
select status from payments
where merchant_id = 'pgbench' and booking_id = 'b' || :r::text
  and status in ('PENDING', 'PROCESSING', 'COMPLETED')
order by (status = 'COMPLETED') desc
limit 1;
insert into bookings (merchant_id, id, status, version, created_at, updated_at)
values ('pgbench', 'b' || :r::text, 'AWAITING_PAYMENT', 1, now(), now())
on conflict (merchant_id, id) do nothing;
insert into payments (id, merchant_id, booking_id, amount, currency, payment_method, customer_email, description,
    status, failure_reason, attempt, version, created_at, updated_at)
values ('pay_' || lpad(:r::text, 24, '0'), 'pgbench', 'b' || :r::text, 12000, 'JPY', 'pm_card_ok', null, null,
    'PENDING', null, 1, 1, now(), now());
insert into payment_transitions (payment_id, from_status, to_status, event, source, source_id, at)
values ('pay_' || lpad(:r::text, 24, '0'), null, 'PENDING', 'CREATE', 'api', 'k' || :r::text, now());
insert into events (id, merchant_id, type, payment_id, booking_id, data, created_at)
values ('evt_c' || lpad(:r::text, 23, '0'), 'pgbench', 'payment.created', 'pay_' || lpad(:r::text, 24, '0'),
    'b' || :r::text, '{"status": "PENDING", "version": 1, "amount": 12000, "currency": "JPY"}', now());
update idempotency_keys
set recovery_point = 'PAYMENT_CREATED', resource_id = 'pay_' || lpad(:r::text, 24, '0'),
    locked_until = now() + make_interval(secs => 30.0)
where merchant_id = 'pgbench' and idempotency_key = 'k' || :r::text and locked_by = md5(:r::text)::uuid;
commit;

-- (3) IdempotentPaymentFlow.submitAndFinish: payments.find, then SandboxGateway.submit (autocommit each)
select id, merchant_id, booking_id, amount, currency, payment_method, customer_email, description, status,
    failure_reason, attempt, version, created_at, updated_at
from payments where id = 'pay_' || lpad(:r::text, 24, '0') and merchant_id = 'pgbench';
insert into sandbox_charges (id, payment_id, attempt, amount, currency, payment_method, status, created_at,
    updated_at, webhooks_due)
values ('ch_' || lpad(:r::text, 24, '0'), 'pay_' || lpad(:r::text, 24, '0'), 1, 12000, 'JPY', 'pm_card_ok',
    'processing', now(), now(), false)
on conflict (payment_id, attempt) do nothing;
select id, payment_id, attempt, amount, currency, status, failure_reason
from sandbox_charges where payment_id = 'pay_' || lpad(:r::text, 24, '0') and attempt = 1;

-- (4) transaction B: re-read, PaymentStateChanges.apply(SUBMIT), history, IdempotencyKeys.finish
begin;
select id, merchant_id, booking_id, amount, currency, payment_method, customer_email, description, status,
    failure_reason, attempt, version, created_at, updated_at
from payments where id = 'pay_' || lpad(:r::text, 24, '0') and merchant_id = 'pgbench';
update payments
set status = 'PROCESSING', failure_reason = null, attempt = 1, version = 2, updated_at = now()
where id = 'pay_' || lpad(:r::text, 24, '0') and version = 1;
insert into payment_transitions (payment_id, from_status, to_status, event, source, source_id, at)
values ('pay_' || lpad(:r::text, 24, '0'), 'PENDING', 'PROCESSING', 'SUBMIT', 'api', 'k' || :r::text, now());
insert into events (id, merchant_id, type, payment_id, booking_id, data, created_at)
values ('evt_p' || lpad(:r::text, 23, '0'), 'pgbench', 'payment.processing', 'pay_' || lpad(:r::text, 24, '0'),
    'b' || :r::text, '{"status": "PROCESSING", "version": 2, "amount": 12000, "currency": "JPY"}', now());
select payment_id, from_status, to_status, event, source, source_id, at
from payment_transitions where payment_id = any(array['pay_' || lpad(:r::text, 24, '0')]) order by id;
update idempotency_keys
set recovery_point = 'FINISHED', response_status = 201,
    response_headers = ('{"ETag": "\"2\"", "Location": "/v1/payments/pay_' || lpad(:r::text, 24, '0') || '"}')::jsonb,
    response_body = convert_to('{"id":"pay_' || lpad(:r::text, 24, '0') || '","bookingId":"b' || :r::text
        || '","amount": 12000,"currency":"JPY","status":"PROCESSING","version": 2,"paymentMethod":"pm_card_ok",'
        || '"failureReason": null,"createdAt":"2026-11-30T03.32.06.941Z","updatedAt":"2026-11-30T03.32.06.965Z",'
        || '"history":[{"from": null,"to":"PENDING","event":"CREATE","source":"api","sourceId":"k' || :r::text
        || '","at":"2026-11-30T03.32.06.941Z"},{"from":"PENDING","to":"PROCESSING","event":"SUBMIT","source":"api",'
        || '"sourceId":"k' || :r::text || '","at":"2026-11-30T03.32.06.965Z"}]}', 'UTF8'),
    locked_by = null, locked_until = null
where merchant_id = 'pgbench' and idempotency_key = 'k' || :r::text and locked_by = md5(:r::text)::uuid;
commit;
