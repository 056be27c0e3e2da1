package com.payorch.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The token bucket and the per-key limiter on an injected clock: no sleeping, exact arithmetic. */
class TokenBucketTest {

    private static final long SECOND = 1_000_000_000L;
    private final AtomicLong now = new AtomicLong(42 * SECOND);

    @Test
    void aFullBucketLetsItsBurstThroughThenRefusesUntilATokenGrows() {
        TokenBucket bucket = new TokenBucket(3, 2.0, now::get); // 3 at once, then one every 0.5 s
        assertThat(bucket.tryTake()).isZero();
        assertThat(bucket.tryTake()).isZero();
        assertThat(bucket.tryTake()).isZero();
        assertThat(bucket.tryTake()).isEqualTo(SECOND / 2);
        now.addAndGet(SECOND / 4);
        assertThat(bucket.tryTake()).as("a refusal takes nothing").isEqualTo(SECOND / 4);
        now.addAndGet(SECOND / 4);
        assertThat(bucket.tryTake()).isZero();
        assertThat(bucket.tryTake()).isEqualTo(SECOND / 2);
    }

    @Test
    void aQuietBucketFillsUpToItsCapacityOnly() {
        TokenBucket bucket = new TokenBucket(2, 1.0, now::get);
        bucket.tryTake();
        bucket.tryTake();
        now.addAndGet(3600 * SECOND);
        assertThat(bucket.tryTake()).isZero();
        assertThat(bucket.tryTake()).isZero();
        assertThat(bucket.tryTake()).isPositive();
    }

    @Test
    void aBucketNeedsACapacityAndARate() {
        assertThatThrownBy(() -> new TokenBucket(0, 1.0, now::get)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TokenBucket(1, 0.0, now::get)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theLimiterKeepsOneBucketPerKeyAndRoundsRetryAfterUpToWholeSeconds() {
        RateLimiter limiter = new RateLimiter(new RateLimitProperties(0.4, 2), now::get); // a token every 2.5 s
        assertThat(limiter.refuse("acme")).isEmpty();
        assertThat(limiter.refuse("acme")).isEmpty();
        assertThat(limiter.refuse("acme")).isEqualTo(OptionalLong.of(3));
        assertThat(limiter.refuse("globex")).as("another key has its own bucket").isEmpty();
        now.addAndGet(2 * SECOND);
        assertThat(limiter.refuse("acme")).isEqualTo(OptionalLong.of(1));
        now.addAndGet(SECOND / 2);
        assertThat(limiter.refuse("acme")).isEmpty();
    }

    @Test
    void offByDefaultAndTheBurstDefaultsToTheRate() {
        RateLimiter off = new RateLimiter(new RateLimitProperties(0, 0), now::get);
        for (int i = 0; i < 1000; i++) {
            assertThat(off.refuse("acme")).isEmpty();
        }
        assertThat(new RateLimitProperties(2.5, 0).capacity()).isEqualTo(3);
        assertThat(new RateLimitProperties(0.1, 0).capacity()).isEqualTo(1);
        assertThat(new RateLimitProperties(10, 4).capacity()).isEqualTo(4);
        assertThatThrownBy(() -> new RateLimitProperties(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RateLimitProperties(1, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
