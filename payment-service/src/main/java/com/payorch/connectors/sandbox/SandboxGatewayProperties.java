package com.payorch.connectors.sandbox;

import com.payorch.signing.WebhookSecret;
import com.payorch.support.Settings;
import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.gateway.sandbox.*}: the built-in sandbox gateway, how it settles its charges and how it delivers
 * their webhooks.
 *
 * @param webhooks      Whether the sandbox delivers its signed webhooks itself (auto) or sends none (off; its
 *                      charges are still settled).
 * @param webhookSecret The Standard Webhooks secret, whsec_ and base64, that signs and verifies webhooks; the
 *                      default is a development secret, published in this file: replace it in any real deployment.
 * @param webhookDelay  How long a charge stays processing before the sandbox settles it.
 * @param webhookUrl    Where the sandbox sends webhooks; unset: this service's own /v1/webhooks/sandbox on
 *                      localhost.
 * @param deliverTwice  Whether every webhook is sent twice with the same id, as real gateways sometimes do.
 * @param reverseOrder  Whether the outcome is sent before payment.processing, as real gateways sometimes do.
 * @param delivery      How hard one webhook is retried.
 * @param pollInterval  How often charges to settle and webhooks to deliver are looked for (each job waits this long
 *                      after a run before the next).
 * @param retention     Settled charges whose webhooks are done (or owed none) are deleted this long after they were
 *                      made, by the retention job (every payments.retention.interval).
 * @param publicUrl     Where customers' browsers reach this service, for the sandbox's 3-D Secure page (this
 *                      address, then /sandbox/authenticate/ and the charge id); unset: http://localhost and the
 *                      server's port.
 */
@ConfigurationProperties("payments.gateway.sandbox")
public record SandboxGatewayProperties(@DefaultValue("auto") WebhookMode webhooks,
                                       @DefaultValue(SandboxGatewayProperties.DEVELOPMENT_WEBHOOK_SECRET)
                                       String webhookSecret,
                                       @DefaultValue("PT0.5S") Duration webhookDelay,
                                       URI webhookUrl,
                                       boolean deliverTwice,
                                       boolean reverseOrder,
                                       @DefaultValue Delivery delivery,
                                       @DefaultValue("PT0.25S") Duration pollInterval,
                                       @DefaultValue("P30D") Duration retention,
                                       URI publicUrl) {

    /** A development default, not a secret: anyone can read it here. */
    public static final String DEVELOPMENT_WEBHOOK_SECRET = "whsec_ND6TizoORtDE/ir/gZloZLqP5sBT2eOENEVdcVM2d9Y=";

    public SandboxGatewayProperties {
        WebhookSecret.parse(webhookSecret); // fail at start-up, not at the first webhook
    }

    /**
     * Retries of one webhook that got no 2xx answer (or no answer).
     *
     * @param maxAttempts    At most this many HTTP requests for one webhook.
     * @param firstBackoff   The wait after the first failed request, doubled after each further one.
     * @param maxBackoff     The longest wait between two requests.
     * @param requestTimeout How long one request may take.
     * @param giveUpAfter    How long after its first request a webhook is given up, whatever the attempts left.
     */
    public record Delivery(@DefaultValue("5") int maxAttempts,
                           @DefaultValue("PT0.5S") Duration firstBackoff,
                           @DefaultValue("PT5S") Duration maxBackoff,
                           @DefaultValue("PT5S") Duration requestTimeout,
                           @DefaultValue("PT1M") Duration giveUpAfter) {

        public Delivery {
            Settings.positive("payments.gateway.sandbox.delivery.max-attempts", maxAttempts);
        }
    }
}
