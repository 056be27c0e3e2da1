package com.payorch.webhooks;

import com.payorch.support.Refusal;
import java.util.List;
import java.util.Map;

/**
 * A notification about a charge that several of the payment's attempts could hold (none has its reference yet):
 * answered 503 with nothing recorded, so the connector delivers it again once recovery has recorded the references.
 */
public class WebhookNotYetMatchable extends Refusal {

    /** As the web layer's own 503s: ask again in a second. */
    private static final String RETRY_AFTER_SECONDS = "1";

    public WebhookNotYetMatchable(String connector, String reference, List<Integer> attempts) {
        super("service_unavailable",
                "Which attempt holds " + connector + " charge " + reference + " is not known yet (attempts " + attempts
                + " have no reference); deliver it again later.");
    }

    @Override
    public Map<String, String> headers() {
        return Map.of("Retry-After", RETRY_AFTER_SECONDS);
    }
}
