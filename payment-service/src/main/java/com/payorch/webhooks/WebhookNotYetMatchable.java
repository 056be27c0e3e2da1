package com.payorch.webhooks;

import com.payorch.support.Refusal;
import java.util.List;

/**
 * A notification about a charge that several of the payment's attempts could hold (none has its reference yet):
 * answered 503 with nothing recorded, so the connector delivers it again once recovery has recorded the references.
 */
public class WebhookNotYetMatchable extends Refusal {

    public WebhookNotYetMatchable(String connector, String reference, List<Integer> attempts) {
        super("Which attempt holds " + connector + " charge " + reference + " is not known yet (attempts " + attempts
                + " have no reference); deliver it again later.");
    }
}
