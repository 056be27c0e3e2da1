-- pgbench-equivalent of one POST /v1/payments (new key, new booking, sandbox gateway, webhooks off): the same
-- statements, in the same order, as the service issues them since the key claim was folded into the first statement
-- (3 statements, each its own transaction, no BEGIN/COMMIT; StatementsPerCreateIT asserts that count). Earlier
-- shapes: 11 round trips (BEGIN/COMMIT counted) in 4 transactions before this change, 20 at the baseline
-- (create-baseline.sql).
--   (1) IdempotencyKeys.claimNewPart + PaymentStore.insertCreated: key at PAYMENT_CREATED, booking, payment,
--       transition, attempt 1, payment.created;
--   (2) SandboxGateway.chargeOnce: the gateway call;
--   (3) PaymentStore.updateCurrentAttemptWith + IdempotencyKeys.finishPart: PROCESSING, transition, attempt,
--       payment.processing and the stored response, all or nothing.
-- One pgbench "transaction" = one create, so pgbench's tps is creates per second at the database's limit.
-- Runs with -M prepared (the R2DBC driver also uses the extended protocol with cached prepared statements) in its
-- own database of the same PostgreSQL, created from the same Flyway migrations (see run.sh).
-- Values the service computes in Java (ids, timestamps, the stored response) are computed here in SQL from the
-- random r; the stored body has the size of the real one (about 490 bytes) but avoids ":name" (a pgbench variable).
-- Not included: the background work a create causes later (outbox relay marking 2 events dispatched, sandbox
-- settlement updating the charge), which the service does off the request path.
\set r random(1, 9000000000000000000)

-- (1) claim the key and create the payment: one statement
with claimed as (
    insert into idempotency_keys (merchant_id, idempotency_key, fingerprint, request_method, request_path,
        recovery_point, resource_id, locked_by, locked_until, created_at, expires_at)
    values ('pgbench', 'k' || :r::text, '5838f6c9e9d1d60d386e641c6ec56e419368e15baedadf2127c3fd69659a68b0', 'POST',
        '/v1/payments', 'PAYMENT_CREATED', 'pay_' || lpad(:r::text, 24, '0'), md5(:r::text)::uuid,
        now() + make_interval(secs => 30.0), now(), now() + make_interval(secs => 86400.0))
    on conflict (merchant_id, idempotency_key) do nothing
    returning 1 as key_claimed),
booking as (
    insert into bookings (merchant_id, id, status, version, created_at, updated_at)
    select 'pgbench', 'b' || :r::text, 'AWAITING_PAYMENT', 1, now(), now() from claimed
    on conflict (merchant_id, id) do nothing),
payment as (
    insert into payments (id, merchant_id, booking_id, amount, currency, payment_method, customer_email, description,
        status, failure_reason, attempt, connector, version, created_at, updated_at, metadata)
    select 'pay_' || lpad(:r::text, 24, '0'), 'pgbench', 'b' || :r::text, 12000, 'JPY', 'pm_card_ok',
        'guest@example.com', 'Room 101, 2 nights', 'PENDING', null, 1, 'sandbox', 1, now(), now(), '{}'::jsonb
    from claimed
    returning id),
transition as (
    insert into payment_transitions (payment_id, from_status, to_status, event, source, source_id, at)
    select id, null, 'PENDING', 'CREATE', 'api', 'k' || :r::text, now() from payment),
attempt as (
    insert into payment_attempts (payment_id, number, connector, reference, status, failure_reason, created_at)
    select id, 1, 'sandbox', null, 'PENDING', null, now() from payment
    returning number, connector, reference, status, failure_reason, created_at),
outbox as (
    insert into events (id, merchant_id, type, payment_id, booking_id, data, created_at)
    select 'evt_c' || lpad(:r::text, 23, '0'), 'pgbench', 'payment.created', id, 'b' || :r::text,
        '{"status": "PENDING", "version": 1, "amount": 12000, "currency": "JPY", "attempt": 1, "metadata": {}}',
        now() from payment)
select count(*) from payment;

-- (2) SandboxGateway.submit -> chargeOnce
with inserted as (
    insert into sandbox_charges (id, payment_id, attempt, amount, currency, payment_method, status, created_at,
        updated_at, webhooks_due)
    values ('ch_' || lpad(:r::text, 24, '0'), 'pay_' || lpad(:r::text, 24, '0'), 1, 12000, 'JPY', 'pm_card_ok',
        'processing', now(), now(), false)
    on conflict (payment_id, attempt) do nothing
    returning id, payment_id, attempt, amount, currency, status, failure_reason)
select * from inserted
union all
select id, payment_id, attempt, amount, currency, status, failure_reason from sandbox_charges
where payment_id = 'pay_' || lpad(:r::text, 24, '0') and attempt = 1 and not exists (select 1 from inserted);

-- (3) the outcome and the stored response: one statement, all or nothing
with current as (
    select p.id from payments p
    join payment_attempts a on a.payment_id = p.id and a.number = 1
    where p.id = 'pay_' || lpad(:r::text, 24, '0') and p.version = 1 and a.reference is null
    for update of p),
finished as (
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
    where merchant_id = 'pgbench' and idempotency_key = 'k' || :r::text and locked_by = md5(:r::text)::uuid
      and exists (select 1 from current)
    returning 1 as key_finished),
changed as (
    update payments
    set status = 'PROCESSING', failure_reason = null, attempt = 1, version = 2, updated_at = now(),
        changed_at = now()
    where id = 'pay_' || lpad(:r::text, 24, '0') and version = 1 and exists (select 1 from finished)
    returning id),
transition as (
    insert into payment_transitions (payment_id, from_status, to_status, event, source, source_id, at)
    select id, 'PENDING', 'PROCESSING', 'SUBMIT', 'api', 'k' || :r::text, now() from changed),
attempt as (
    update payment_attempts a
    set status = 'PROCESSING', reference = coalesce(a.reference, 'ch_' || lpad(:r::text, 24, '0')),
        failure_reason = null
    from changed where a.payment_id = changed.id and a.number = 1
    returning a.number, a.connector, a.reference, a.status, a.failure_reason, a.created_at),
outbox as (
    insert into events (id, merchant_id, type, payment_id, booking_id, data, created_at)
    select 'evt_p' || lpad(:r::text, 23, '0'), 'pgbench', 'payment.processing', id, 'b' || :r::text,
        '{"status": "PROCESSING", "version": 2, "amount": 12000, "currency": "JPY", "attempt": 1, "metadata": {}}',
        now() from changed)
select (select count(*) from current) as found, (select count(*) from changed) as written;
