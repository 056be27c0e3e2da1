package com.payorch.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import reactor.test.StepVerifier;

/** The key table's rules against the real database: lock expiry, take-over, late writers, retention. */
class IdempotencyKeysIT extends ApiTest {

    @Autowired
    IdempotencyKeys keys;
    @Autowired
    ExpiredKeyCleanup cleanup;

    private IdempotentRequest request(String key) {
        return new IdempotentRequest("demo", key, "POST", "/v1/test", "f".repeat(64));
    }

    private KeyClaim claim(IdempotentRequest request) {
        KeyAcquisition acquisition = keys.acquire(request).block(Duration.ofSeconds(10));
        assertThat(acquisition).isInstanceOf(KeyAcquisition.Claimed.class);
        return ((KeyAcquisition.Claimed) acquisition).claim();
    }

    private void expireLock(String key) {
        db.sql("update idempotency_keys set locked_until = now() - interval '1 second' where idempotency_key = $1")
                .bind(0, key).then().block(Duration.ofSeconds(10));
    }

    @Test
    void aLockHeldByALiveAttemptAnswersInProgress() {
        IdempotentRequest request = request(unique("key"));
        claim(request);
        StepVerifier.create(keys.acquire(request))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(IdempotencyRequestInProgress.class);
                    assertThat(((IdempotencyRequestInProgress) e).retryAfterSeconds()).isBetween(1, 30);
                })
                .verify(Duration.ofSeconds(10));
    }

    @Test
    void anExpiredLockIsTakenOverAndTheLateWriterCannotOverwriteTheNewOwner() {
        IdempotentRequest request = request(unique("key"));
        KeyClaim first = claim(request);
        expireLock(request.key());
        KeyClaim second = claim(request);
        assertThat(second.owner()).isNotEqualTo(first.owner());
        assertThat(second.recoveryPoint()).isEqualTo(RecoveryPoint.STARTED);

        StoredResponse late = new StoredResponse(201, Map.of(), "late".getBytes(StandardCharsets.UTF_8), false);
        StepVerifier.create(keys.finish(first, late))
                .expectError(IdempotencyLockLostException.class)
                .verify(Duration.ofSeconds(10));

        StoredResponse winner = new StoredResponse(201, Map.of("ETag", "\"1\""), "winner".getBytes(StandardCharsets.UTF_8), false);
        keys.finish(second, winner).block(Duration.ofSeconds(10));
        KeyAcquisition replay = keys.acquire(request).block(Duration.ofSeconds(10));
        assertThat(replay).isInstanceOfSatisfying(KeyAcquisition.Replay.class, r -> {
            assertThat(new String(r.response().body(), StandardCharsets.UTF_8)).isEqualTo("winner");
            assertThat(r.response().headers()).containsEntry("ETag", "\"1\"");
            assertThat(r.response().replayed()).isTrue();
        });
    }

    @Test
    void aReleasedKeyResumesFromItsRecoveryPointAtOnce() {
        IdempotentRequest request = request(unique("key"));
        KeyClaim first = claim(request);
        keys.release(first).block(Duration.ofSeconds(10));
        KeyClaim again = claim(request);
        assertThat(again.recoveryPoint()).isEqualTo(RecoveryPoint.STARTED);
        assertThat(again.owner()).isNotEqualTo(first.owner());
    }

    @Test
    void aDifferentFingerprintIsRefused() {
        IdempotentRequest request = request(unique("key"));
        claim(request);
        IdempotentRequest other = new IdempotentRequest("demo", request.key(), "POST", "/v1/test", "e".repeat(64));
        StepVerifier.create(keys.acquire(other))
                .expectError(IdempotencyKeyReused.class)
                .verify(Duration.ofSeconds(10));
    }

    @Test
    void keysPastTheirRetentionAreDeletedByTheCleanupJobAndAreNewAgainBeforeThat() {
        IdempotentRequest request = request(unique("key"));
        KeyClaim first = claim(request);
        keys.finish(first, new StoredResponse(201, Map.of(), new byte[] {'x'}, false)).block(Duration.ofSeconds(10));
        db.sql("update idempotency_keys set expires_at = now() - interval '1 second' where idempotency_key = $1")
                .bind(0, request.key()).then().block(Duration.ofSeconds(10));

        // Expired but not yet deleted: the key is new again.
        KeyClaim renewed = claim(request);
        assertThat(renewed.recoveryPoint()).isEqualTo(RecoveryPoint.STARTED);
        keys.finish(renewed, new StoredResponse(201, Map.of(), new byte[] {'y'}, false)).block(Duration.ofSeconds(10));
        db.sql("update idempotency_keys set expires_at = now() - interval '1 second' where idempotency_key = $1")
                .bind(0, request.key()).then().block(Duration.ofSeconds(10));

        StepVerifier.create(cleanup.deleteExpiredKeys())
                .assertNext(deleted -> assertThat(deleted).isGreaterThanOrEqualTo(1))
                .verifyComplete();
        assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1", request.key())).isZero();
    }
}
