package com.payorch.gateway.sandbox;

import com.payorch.signing.WebhookSecret;
import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * `payments.gateway.sandbox.*`, with the defaults here:
 * <ul>
 * <li>`webhooks` ({@code auto}): `auto` delivers signed webhooks, `off` delivers none;</li>
 * <li>`webhook-secret`: the Standard Webhooks secret both sides use; the default is a development secret, published
 *     in this file: replace it in any real deployment;</li>
 * <li>`webhook-delay` ({@code PT0.5S}): how long a charge stays `processing` before the sandbox settles it;</li>
 * <li>`webhook-url` (unset: this service's own `http://localhost:<port>/v1/webhooks/sandbox`);</li>
 * <li>`deliver-twice`, `reverse-order` (false): misbehave as real gateways do: every webhook sent twice with the
 *     same id; the outcome before `payment.processing`;</li>
 * <li>`delivery.*`: how hard one webhook is retried (see {@link Delivery});</li>
 * <li>`poll-interval` ({@code PT0.25S}): how often charges to settle and webhooks to deliver are looked for (each
 *     job waits this long after a run before the next);</li>
 * <li>`retention` ({@code P30D}): settled charges whose webhooks are done (or owed none) are deleted this long after
 *     they were made, by the retention job (every `payments.retention.interval`).</li>
 * </ul>
 */
@ConfigurationProperties("payments.gateway.sandbox")
public record SandboxGatewayProperties(WebhookMode webhooks, String webhookSecret, Duration webhookDelay,
                                       URI webhookUrl, boolean deliverTwice, boolean reverseOrder, Delivery delivery,
                                       Duration pollInterval, Duration retention) {

    /** A development default, not a secret: anyone can read it here. */
    public static final String DEVELOPMENT_WEBHOOK_SECRET = "whsec_ND6TizoORtDE/ir/gZloZLqP5sBT2eOENEVdcVM2d9Y=";

    public SandboxGatewayProperties {
        webhooks = webhooks != null ? webhooks : WebhookMode.AUTO;
        webhookSecret = webhookSecret != null ? webhookSecret : DEVELOPMENT_WEBHOOK_SECRET;
        WebhookSecret.parse(webhookSecret); // fail at start-up, not at the first webhook
        webhookDelay = webhookDelay != null ? webhookDelay : Duration.ofMillis(500);
        delivery = delivery != null ? delivery : new Delivery(0, null, null, null, null);
        pollInterval = pollInterval != null ? pollInterval : Duration.ofMillis(250);
        retention = retention != null ? retention : Duration.ofDays(30);
    }

    /**
     * Retries of one webhook that got no 2xx answer (or no answer): at most `max-attempts` (5) HTTP requests, waiting
     * `first-backoff` (PT0.5S) doubling up to `max-backoff` (PT5S) between them, each request given
     * `request-timeout` (PT5S), and the webhook given up after `give-up-after` (PT1M) in all.
     */
    public record Delivery(int maxAttempts, Duration firstBackoff, Duration maxBackoff, Duration requestTimeout,
                           Duration giveUpAfter) {

        public Delivery {
            maxAttempts = maxAttempts > 0 ? maxAttempts : 5;
            firstBackoff = firstBackoff != null ? firstBackoff : Duration.ofMillis(500);
            maxBackoff = maxBackoff != null ? maxBackoff : Duration.ofSeconds(5);
            requestTimeout = requestTimeout != null ? requestTimeout : Duration.ofSeconds(5);
            giveUpAfter = giveUpAfter != null ? giveUpAfter : Duration.ofMinutes(1);
        }
    }
}
