package com.payorch.gateway;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

class TimeLimitedGatewayTest {

    private static final GatewayOutcome CHARGE =
            new GatewayOutcome("pay_1", 1, "test", "ch_1", GatewayStatus.PROCESSING, null);
    private static final ChargeRequest ATTEMPT_1 = new ChargeRequest("pay_1", 1, 12000, "JPY", "pm_card_ok");

    private static PaymentGateway gateway(Mono<GatewayOutcome> answer) {
        return new PaymentGateway() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public Mono<GatewayOutcome> submit(ChargeRequest request) {
                return answer;
            }

            @Override
            public Mono<GatewayOutcome> find(ChargeRequest request) {
                return answer;
            }
        };
    }

    @Test
    void aHungSubmitFailsAsOutcomeUnknownAfterTheTimeout() {
        StepVerifier.withVirtualTime(() -> new TimeLimitedGateway(gateway(Mono.never()), Duration.ofSeconds(10))
                        .submit(new ChargeRequest("pay_1", 2, 12000, "JPY", "pm_card_ok")))
                .expectSubscription()
                .expectNoEvent(Duration.ofMillis(9_999))
                .thenAwait(Duration.ofMillis(1))
                .expectErrorSatisfies(error -> org.assertj.core.api.Assertions.assertThat(error)
                        .isInstanceOf(GatewayException.class)
                        .isNotInstanceOf(GatewayUnavailableException.class)
                        .hasMessage("no answer from the gateway within PT10S to the submit of payment pay_1 attempt 2"))
                .verify(Duration.ofSeconds(5));
    }

    @Test
    void aHungStatusQueryFailsAfterTheTimeout() {
        StepVerifier.withVirtualTime(() -> new TimeLimitedGateway(gateway(Mono.never()), Duration.ofSeconds(10))
                        .find(ATTEMPT_1))
                .expectSubscription()
                .thenAwait(Duration.ofSeconds(10))
                .expectError(GatewayException.class)
                .verify(Duration.ofSeconds(5));
    }

    @Test
    void answersInTimePassThrough() {
        TimeLimitedGateway bounded = new TimeLimitedGateway(gateway(Mono.just(CHARGE)), Duration.ofSeconds(10));
        StepVerifier.create(bounded.submit(new ChargeRequest("pay_1", 1, 12000, "JPY", "pm_card_ok")))
                .expectNext(CHARGE).verifyComplete();
        StepVerifier.create(bounded.find(ATTEMPT_1)).expectNext(CHARGE).verifyComplete();
    }
}
