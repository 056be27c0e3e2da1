package com.payorch.testsupport;

import com.payorch.gateway.Connector;
import com.payorch.gateway.CurrencyUnits;
import com.payorch.gateway.ConnectorCapability;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.WebhookAcknowledgement;
import com.payorch.gateway.WebhookEndpointDescription;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Puts {@link SandboxFaults} in front of the sandbox connector's gateway: the service under test sees the same
 * sandbox, whose answers a test can hold or lose.
 */
@TestConfiguration(proxyBeanMethods = false)
public class SandboxFaultsConfiguration {

    @Bean
    SandboxFaults sandboxFaults() {
        return new SandboxFaults();
    }

    @Bean
    static BeanPostProcessor sandboxFaultsInFrontOfTheSandbox(ObjectProvider<SandboxFaults> faults) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof Connector connector && connector.name().equals("sandbox")) {
                    return withFaults(connector, faults.getObject());
                }
                return bean;
            }
        };
    }

    private static Connector withFaults(Connector sandbox, SandboxFaults faults) {
        PaymentGateway gateway = faults.around(sandbox.gateway());
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
            public void checkSettings() {
                sandbox.checkSettings();
            }

            @Override
            public Optional<Duration> idempotencyKeyLifetime() {
                return sandbox.idempotencyKeyLifetime();
            }

            @Override
            public CurrencyUnits currencyUnits() {
                return sandbox.currencyUnits();
            }
        };
    }
}
