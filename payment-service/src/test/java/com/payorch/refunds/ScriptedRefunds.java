package com.payorch.refunds;

import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.Connector;
import com.payorch.gateway.ConnectorCapability;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.CurrencyUnits;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import com.payorch.gateway.WebhookAcknowledgement;
import com.payorch.gateway.WebhookEndpointDescription;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import reactor.core.publisher.Mono;

/**
 * A test double in front of the sandbox's refunds, for what the sandbox cannot express: a refund send whose answer is
 * lost (after the sandbox made the refund, or before it heard of it), a definite refusal of the next send, a refund
 * look-up that fails. Scripted per payment (tests share the service): each scripted answer is used once, in order;
 * with none scripted the sandbox answers. Every refund request that reaches the connector is recorded.
 */
class ScriptedRefunds {

    enum Answer {
        /** The sandbox makes the refund; its answer is lost on the way back (a time-out, a reset). */
        LOST_AFTER_REFUNDING,
        /** The request is lost before the sandbox hears of it; the caller cannot tell. */
        LOST_BEFORE_REFUNDING,
        /** A definite refusal: the connector says it did not refund. */
        REFUSED
    }

    private final Map<String, Queue<Answer>> next = new ConcurrentHashMap<>();
    private final List<RefundRequest> sent = new CopyOnWriteArrayList<>();
    private final Set<String> lookUpsFail = ConcurrentHashMap.newKeySet();

    void answerNextSend(String paymentId, Answer answer) {
        next.computeIfAbsent(paymentId, id -> new ConcurrentLinkedQueue<>()).add(answer);
    }

    void lookUpsFail(String paymentId, boolean fail) {
        if (fail) {
            lookUpsFail.add(paymentId);
        } else {
            lookUpsFail.remove(paymentId);
        }
    }

    /** The refund requests that reached the connector, in order. */
    List<RefundRequest> sent() {
        return sent;
    }

    long sendsOf(String refundId) {
        return sent.stream().filter(request -> request.refundId().equals(refundId)).count();
    }

    PaymentGateway around(PaymentGateway sandbox) {
        return new PaymentGateway() {
            @Override
            public String name() {
                return sandbox.name();
            }

            @Override
            public Mono<GatewayOutcome> submit(ChargeRequest request) {
                return sandbox.submit(request);
            }

            @Override
            public Mono<GatewayOutcome> find(ChargeRequest request) {
                return sandbox.find(request);
            }

            @Override
            public Mono<RefundOutcome> refund(RefundRequest request) {
                return Mono.defer(() -> {
                    sent.add(request);
                    Queue<Answer> scripted = next.get(request.paymentId());
                    Answer answer = scripted == null ? null : scripted.poll();
                    if (answer == null) {
                        return sandbox.refund(request);
                    }
                    return switch (answer) {
                        case LOST_AFTER_REFUNDING -> sandbox.refund(request).then(Mono.error(
                                new GatewayException("scripted: the answer to refund " + request.refundId()
                                        + " was lost")));
                        case LOST_BEFORE_REFUNDING -> Mono.error(new GatewayException("scripted: refund "
                                + request.refundId() + " was lost on the way"));
                        case REFUSED -> Mono.error(new ConnectorRefusedException("scripted: refund "
                                + request.refundId() + " refused"));
                    };
                });
            }

            @Override
            public Mono<RefundOutcome> findRefund(RefundRequest request) {
                return Mono.defer(() -> lookUpsFail.contains(request.paymentId())
                        ? Mono.error(new GatewayException("scripted: the refund look-up failed"))
                        : sandbox.findRefund(request));
            }
        };
    }

    /** Puts the double in front of the sandbox connector's gateway. */
    @TestConfiguration(proxyBeanMethods = false)
    static class Configuration {

        @Bean
        ScriptedRefunds scriptedRefunds() {
            return new ScriptedRefunds();
        }

        @Bean
        static BeanPostProcessor scriptedRefundsInFrontOfTheSandbox(ObjectProvider<ScriptedRefunds> scripted) {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String beanName) {
                    if (bean instanceof Connector connector && connector.name().equals("sandbox")) {
                        return withScript(connector, scripted.getObject());
                    }
                    return bean;
                }
            };
        }

        private static Connector withScript(Connector sandbox, ScriptedRefunds scripted) {
            PaymentGateway gateway = scripted.around(sandbox.gateway());
            return new Connector() {
                @Override
                public String name() {
                    return sandbox.name();
                }

                @Override
                public PaymentGateway gateway() {
                    return gateway;
                }

                @Override
                public ConnectorWebhooks webhooksFor(@Nullable String merchantId) {
                    return sandbox.webhooksFor(merchantId);
                }

                @Override
                public boolean webhooksPerMerchant() {
                    return sandbox.webhooksPerMerchant();
                }

                @Override
                public WebhookEndpointDescription webhookEndpoint() {
                    return sandbox.webhookEndpoint();
                }

                @Override
                public WebhookAcknowledgement acknowledgement() {
                    return sandbox.acknowledgement();
                }

                @Override
                public Set<ConnectorCapability> capabilities() {
                    return sandbox.capabilities();
                }

                @Override
                public Optional<Duration> idempotencyKeyLifetime() {
                    return sandbox.idempotencyKeyLifetime();
                }

                @Override
                public CurrencyUnits currencyUnits() {
                    return sandbox.currencyUnits();
                }

                @Override
                public void checkSettings() {
                    sandbox.checkSettings();
                }
            };
        }
    }
}
