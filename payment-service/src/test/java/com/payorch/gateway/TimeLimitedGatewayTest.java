package com.payorch.gateway;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

class TimeLimitedGatewayTest {

    private static final GatewayCharge CHARGE = new GatewayCharge("ch_1", "pay_1", 1, 12000, "JPY", "processing", null);

    private static PaymentGateway gateway(Mono<GatewayCharge> answer) {
        return new PaymentGateway() {
            @Override
            public Mono<GatewayCharge> submit(ChargeRequest request) {
                return answer;
            }

            @Override
            public Mono<GatewayCharge> findCharge(String paymentId, int attempt) {
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
                        .findCharge("pay_1", 1))
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
        StepVerifier.create(bounded.findCharge("pay_1", 1)).expectNext(CHARGE).verifyComplete();
    }
}
