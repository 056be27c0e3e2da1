package com.payorch.idempotency;

import com.payorch.support.SqlPart;
import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;

/**
 * The idempotency-key table. Claims are coordinated by PostgreSQL alone (unique key, row lock, the database clock),
 * so any number of service instances can share it. Every write after the claim names the owning attempt
 * (`locked_by`), so an attempt whose lock expired and was taken over cannot overwrite the new owner's work.
 */
@Component
public class IdempotencyKeys {

    private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {
    };

    private final DatabaseClient db;
    private final TransactionalOperator transaction;
    private final IdempotencyProperties properties;
    private final ObjectMapper objectMapper;

    public IdempotencyKeys(DatabaseClient db, TransactionalOperator transaction, IdempotencyProperties properties,
                           ObjectMapper objectMapper) {
        this.db = db;
        this.transaction = transaction;
        this.properties = properties;
        this.objectMapper = objectMapper;
    }

    /** Claims the key for a new attempt, or answers with the stored response, 422 or 409 as the contract says. */
    public Mono<KeyAcquisition> acquire(IdempotentRequest request) {
        UUID owner = UUID.randomUUID();
        return insertNew(request, owner)
                .switchIfEmpty(Mono.defer(() -> transaction.transactional(claimExisting(request, owner))))
                // The row can vanish between the insert and the select (a refused request deletes its key): go again.
                .repeatWhenEmpty(3, attempts -> attempts)
                .switchIfEmpty(Mono.error(() -> inProgress(1)));
    }

    /**
     * For a request whose key was just found to exist: a finished key with the same fingerprint is replayed, and
     * another fingerprint refused (422), from one plain read (both are final until the key expires); anything else
     * (in progress, to take over, expired, vanished) goes through {@link #acquire}.
     */
    public Mono<KeyAcquisition> acquireExisting(IdempotentRequest request) {
        return db.sql("""
                        select fingerprint, recovery_point, resource_id,
                               coalesce(locked_until > now(), false) as locked,
                               greatest(1, ceil(extract(epoch from (locked_until - now()))))::int as lock_seconds_left,
                               expires_at <= now() as expired,
                               response_status, response_headers, response_body
                        from idempotency_keys
                        where merchant_id = :merchant and idempotency_key = :key""")
                .bind("merchant", request.merchantId())
                .bind("key", request.key())
                .map(this::existingKey)
                .one()
                .flatMap(existing -> {
                    if (existing.expired()) {
                        return Mono.<KeyAcquisition>empty();
                    }
                    if (!existing.fingerprint().equals(request.fingerprint())) {
                        return Mono.<KeyAcquisition>error(new IdempotencyKeyReused());
                    }
                    return existing.recoveryPoint().equals(RecoveryPoint.FINISHED)
                            ? Mono.<KeyAcquisition>just(new KeyAcquisition.Replay(existing.response().asReplay()))
                            : Mono.<KeyAcquisition>empty();
                })
                .switchIfEmpty(Mono.defer(() -> acquire(request)));
    }

    private Mono<KeyAcquisition> insertNew(IdempotentRequest request, UUID owner) {
        return db.sql("""
                        insert into idempotency_keys (merchant_id, idempotency_key, fingerprint, request_method,
                            request_path, recovery_point, locked_by, locked_until, created_at, expires_at)
                        values (:merchant, :key, :fingerprint, :method, :path, 'STARTED', :owner,
                            now() + make_interval(secs => :lockSeconds), now(),
                            now() + make_interval(secs => :retentionSeconds))
                        on conflict (merchant_id, idempotency_key) do nothing
                        returning 1""")
                .bind("merchant", request.merchantId())
                .bind("key", request.key())
                .bind("fingerprint", request.fingerprint())
                .bind("method", request.method())
                .bind("path", request.path())
                .bind("owner", owner)
                .bind("lockSeconds", seconds(properties.lockTimeout()))
                .bind("retentionSeconds", seconds(properties.retention()))
                .map(row -> (KeyAcquisition) new KeyAcquisition.Claimed(
                        new KeyClaim(request, owner, RecoveryPoint.STARTED, null)))
                .one();
    }

    private record ExistingKey(String fingerprint, String recoveryPoint, String resourceId, boolean locked,
                               int lockSecondsLeft, boolean expired, StoredResponse response) {
    }

    private Mono<KeyAcquisition> claimExisting(IdempotentRequest request, UUID owner) {
        return db.sql("""
                        select fingerprint, recovery_point, resource_id,
                               coalesce(locked_until > now(), false) as locked,
                               greatest(1, ceil(extract(epoch from (locked_until - now()))))::int as lock_seconds_left,
                               expires_at <= now() as expired,
                               response_status, response_headers, response_body
                        from idempotency_keys
                        where merchant_id = :merchant and idempotency_key = :key
                        for update""")
                .bind("merchant", request.merchantId())
                .bind("key", request.key())
                .map(this::existingKey)
                .one()
                .flatMap(existing -> decide(request, owner, existing));
    }

    private Mono<KeyAcquisition> decide(IdempotentRequest request, UUID owner, ExistingKey existing) {
        if (existing.expired()) {
            return restartExpired(request, owner);
        }
        if (!existing.fingerprint().equals(request.fingerprint())) {
            return Mono.error(new IdempotencyKeyReused());
        }
        if (existing.recoveryPoint().equals(RecoveryPoint.FINISHED)) {
            return Mono.just(new KeyAcquisition.Replay(existing.response().asReplay()));
        }
        if (existing.locked()) {
            return Mono.error(inProgress(existing.lockSecondsLeft()));
        }
        return takeOver(request, owner)
                .thenReturn(new KeyAcquisition.Claimed(
                        new KeyClaim(request, owner, existing.recoveryPoint(), existing.resourceId())));
    }

    private Mono<Void> takeOver(IdempotentRequest request, UUID owner) {
        return db.sql("""
                        update idempotency_keys
                        set locked_by = :owner, locked_until = now() + make_interval(secs => :lockSeconds)
                        where merchant_id = :merchant and idempotency_key = :key""")
                .bind("owner", owner)
                .bind("lockSeconds", seconds(properties.lockTimeout()))
                .bind("merchant", request.merchantId())
                .bind("key", request.key())
                .then();
    }

    // Past its retention a key is new again, even if the cleanup job has not deleted it yet.
    private Mono<KeyAcquisition> restartExpired(IdempotentRequest request, UUID owner) {
        return db.sql("""
                        update idempotency_keys
                        set fingerprint = :fingerprint, request_method = :method, request_path = :path,
                            recovery_point = 'STARTED', resource_id = null, locked_by = :owner,
                            locked_until = now() + make_interval(secs => :lockSeconds),
                            response_status = null, response_headers = null, response_body = null,
                            created_at = now(), expires_at = now() + make_interval(secs => :retentionSeconds)
                        where merchant_id = :merchant and idempotency_key = :key""")
                .bind("fingerprint", request.fingerprint())
                .bind("method", request.method())
                .bind("path", request.path())
                .bind("owner", owner)
                .bind("lockSeconds", seconds(properties.lockTimeout()))
                .bind("retentionSeconds", seconds(properties.retention()))
                .bind("merchant", request.merchantId())
                .bind("key", request.key())
                .then()
                .thenReturn(new KeyAcquisition.Claimed(new KeyClaim(request, owner, RecoveryPoint.STARTED, null)));
    }

    /**
     * A data-modifying CTE part for a create's first statement: claims a new key directly at the caller's
     * {@code recoveryPoint} for {@code resourceId} (what that statement creates), locked by {@code owner}. The CTE
     * {@code cteName} yields one row when the key was new and none when it exists (then the caller's statement must
     * write nothing and the request takes {@link #acquire}'s path).
     * The primary key serialises concurrent duplicates: the second waits for the first statement's commit, then
     * finds the key. Nothing is committed when the statement fails, so a refusal leaves no key behind.
     */
    public SqlPart claimNewPart(String cteName, IdempotentRequest request, UUID owner, String recoveryPoint,
                                String resourceId) {
        Map<String, Parameter> values = new HashMap<>();
        values.put("keyMerchant", Parameter.from(request.merchantId()));
        values.put("keyKey", Parameter.from(request.key()));
        values.put("keyFingerprint", Parameter.from(request.fingerprint()));
        values.put("keyMethod", Parameter.from(request.method()));
        values.put("keyPath", Parameter.from(request.path()));
        values.put("keyRecoveryPoint", Parameter.from(RecoveryPoint.callerStep(recoveryPoint)));
        values.put("keyResource", Parameter.from(resourceId));
        values.put("keyOwner", Parameter.from(owner));
        values.put("keyLockSeconds", Parameter.from(seconds(properties.lockTimeout())));
        values.put("keyRetentionSeconds", Parameter.from(seconds(properties.retention())));
        return new SqlPart(cteName + " as (" + """
                insert into idempotency_keys (merchant_id, idempotency_key, fingerprint, request_method,
                    request_path, recovery_point, resource_id, locked_by, locked_until, created_at, expires_at)
                values (:keyMerchant, :keyKey, :keyFingerprint, :keyMethod, :keyPath, :keyRecoveryPoint, :keyResource,
                    :keyOwner, now() + make_interval(secs => :keyLockSeconds), now(),
                    now() + make_interval(secs => :keyRetentionSeconds))
                on conflict (merchant_id, idempotency_key) do nothing
                returning 1 as key_claimed)""", values);
    }

    /**
     * A data-modifying CTE part that does what {@link #finish} does, once for each row of the CTE {@code fromCte}
     * (a caller's check that its own change may go ahead), inside the caller's single statement. The CTE
     * {@code cteName} yields one row when the response was stored, none when {@code fromCte} was empty or the claim
     * was lost (the caller tells the two apart, and writes nothing of its own unless this CTE yielded a row).
     */
    public SqlPart finishPart(String cteName, String fromCte, KeyClaim claim, StoredResponse response) {
        Map<String, Parameter> values = new HashMap<>();
        values.put("keyStatus", Parameter.from(response.status()));
        values.put("keyHeaders", Parameter.from(Json.of(toJson(response.headers()))));
        values.put("keyBody", Parameter.from(ByteBuffer.wrap(response.body())));
        values.put("keyMerchant", Parameter.from(claim.request().merchantId()));
        values.put("keyKey", Parameter.from(claim.request().key()));
        values.put("keyOwner", Parameter.from(claim.owner()));
        return new SqlPart(cteName + " as (" + """
                update idempotency_keys
                    set recovery_point = 'FINISHED', response_status = :keyStatus, response_headers = :keyHeaders,
                        response_body = :keyBody, locked_by = null, locked_until = null
                    where merchant_id = :keyMerchant and idempotency_key = :keyKey and locked_by = :keyOwner
                      and exists (select 1 from\s""" + fromCte + """
                )
                    returning 1 as key_finished)""", values);
    }

    /**
     * Records the caller's step {@code recoveryPoint}, committed with {@code resourceId} (e.g. the payment row it
     * created); runs inside the caller's transaction, so the key never names a resource whose insert rolled back.
     */
    public Mono<Void> advanceTo(KeyClaim claim, String recoveryPoint, String resourceId) {
        return db.sql("""
                        update idempotency_keys
                        set recovery_point = :recoveryPoint, resource_id = :resourceId,
                            locked_until = now() + make_interval(secs => :lockSeconds)
                        where merchant_id = :merchant and idempotency_key = :key and locked_by = :owner""")
                .bind("recoveryPoint", RecoveryPoint.callerStep(recoveryPoint))
                .bind("resourceId", resourceId)
                .bind("lockSeconds", seconds(properties.lockTimeout()))
                .bind("merchant", claim.request().merchantId())
                .bind("key", claim.request().key())
                .bind("owner", claim.owner())
                .fetch().rowsUpdated()
                .flatMap(this::requireOwnership);
    }

    /** Stores the final response and releases the key; runs inside the caller's transaction. */
    public Mono<Void> finish(KeyClaim claim, StoredResponse response) {
        return db.sql("""
                        update idempotency_keys
                        set recovery_point = 'FINISHED', response_status = :status, response_headers = :headers,
                            response_body = :body, locked_by = null, locked_until = null
                        where merchant_id = :merchant and idempotency_key = :key and locked_by = :owner""")
                .bind("status", response.status())
                .bind("headers", Json.of(toJson(response.headers())))
                .bind("body", ByteBuffer.wrap(response.body()))
                .bind("merchant", claim.request().merchantId())
                .bind("key", claim.request().key())
                .bind("owner", claim.owner())
                .fetch().rowsUpdated()
                .flatMap(this::requireOwnership);
    }

    /** After a failure that stored nothing final: the next attempt may resume at once instead of waiting. */
    public Mono<Void> release(KeyClaim claim) {
        return db.sql("""
                        update idempotency_keys set locked_by = null, locked_until = null
                        where merchant_id = :merchant and idempotency_key = :key and locked_by = :owner""")
                .bind("merchant", claim.request().merchantId())
                .bind("key", claim.request().key())
                .bind("owner", claim.owner())
                .then();
    }

    /**
     * After a failure (a 5xx): a key under which nothing was committed (still STARTED) is deleted, so the key is free
     * for any request; a key with committed work is unlocked, so the client's retry resumes at once. One statement.
     */
    public Mono<Void> free(KeyClaim claim) {
        return db.sql("""
                        with forgotten as (
                            delete from idempotency_keys
                            where merchant_id = :merchant and idempotency_key = :key and locked_by = :owner
                              and recovery_point = 'STARTED')
                        update idempotency_keys set locked_by = null, locked_until = null
                        where merchant_id = :merchant and idempotency_key = :key and locked_by = :owner
                          and recovery_point <> 'STARTED'""")
                .bind("merchant", claim.request().merchantId())
                .bind("key", claim.request().key())
                .bind("owner", claim.owner())
                .then();
    }

    /** After a refusal before any state change: the key was never used, so it is free for another request. */
    public Mono<Void> forget(KeyClaim claim) {
        return db.sql("""
                        delete from idempotency_keys
                        where merchant_id = :merchant and idempotency_key = :key and locked_by = :owner
                          and recovery_point = 'STARTED'""")
                .bind("merchant", claim.request().merchantId())
                .bind("key", claim.request().key())
                .bind("owner", claim.owner())
                .then();
    }

    /** Deletes up to `batchSize` keys past their retention; answers how many went. */
    public Mono<Long> deleteExpired(int batchSize) {
        return db.sql("""
                        delete from idempotency_keys where ctid = any(array(
                            select ctid from idempotency_keys
                            where expires_at <= now() and (locked_until is null or locked_until <= now())
                            limit :batch))""")
                .bind("batch", batchSize)
                .fetch().rowsUpdated();
    }

    private Mono<Void> requireOwnership(Long rowsUpdated) {
        return rowsUpdated == 1 ? Mono.empty() : Mono.error(new IdempotencyLockLostException());
    }

    private ExistingKey existingKey(Readable row) {
        String recoveryPoint = row.get("recovery_point", String.class);
        StoredResponse response = null;
        if (RecoveryPoint.FINISHED.equals(recoveryPoint)) {
            ByteBuffer body = row.get("response_body", ByteBuffer.class);
            byte[] bytes = new byte[body.remaining()];
            body.get(bytes);
            response = new StoredResponse(row.get("response_status", Integer.class),
                    fromJson(row.get("response_headers", Json.class)), bytes, false);
        }
        Integer secondsLeft = row.get("lock_seconds_left", Integer.class);
        return new ExistingKey(row.get("fingerprint", String.class), recoveryPoint,
                row.get("resource_id", String.class),
                Boolean.TRUE.equals(row.get("locked", Boolean.class)), secondsLeft == null ? 1 : secondsLeft,
                Boolean.TRUE.equals(row.get("expired", Boolean.class)), response);
    }

    static IdempotencyRequestInProgress inProgress(int retryAfterSeconds) {
        return new IdempotencyRequestInProgress(
                "A request with this Idempotency-Key is still being processed; retry after it finishes.",
                retryAfterSeconds);
    }

    private static double seconds(java.time.Duration duration) {
        return duration.toMillis() / 1000.0;
    }

    private String toJson(Map<String, String> headers) {
        return objectMapper.writeValueAsString(headers);
    }

    private Map<String, String> fromJson(Json json) {
        return objectMapper.readValue(json.asString(), HEADERS);
    }
}
