package com.payorch.payments;

import com.payorch.statemachine.PaymentStatus;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A payment's customer action (3-D Secure, a redirect): where the merchant wants the customer back, and, while the
 * connector waits for the customer (REQUIRES_ACTION), where to send them and since when. Kept on the payment row and
 * changed only with its transitions.
 *
 * @param returnUrl     the merchant's `returnUrl` as given on create; null: the customer cannot act, a connector that
 *                      asks for them fails the payment `authentication_required`
 * @param nextActionUrl the connector's page the customer is sent to (the latest one asked for)
 * @param requiredAt    when the payment last entered REQUIRES_ACTION: its expiry counts from here
 */
public record CustomerAction(@Nullable String returnUrl, @Nullable String nextActionUrl,
                             @Nullable Instant requiredAt) {

    /** A payment whose merchant gave no `returnUrl`. */
    public static final CustomerAction NONE = new CustomerAction(null, null, null);

    /** The failure reason of a payment whose connector asked for a customer that cannot act (no `returnUrl`). */
    public static final String AUTHENTICATION_REQUIRED = "authentication_required";

    /**
     * The failure reason of a payment whose customer did not act in time; also the cancel reason the expiry records,
     * so that the connector's confirmation of that cancel FAILS the payment with it.
     */
    public static final String AUTHENTICATION_EXPIRED = "authentication_expired";

    public static CustomerAction returningTo(@Nullable String returnUrl) {
        return returnUrl == null ? NONE : new CustomerAction(returnUrl, null, null);
    }

    public boolean customerCanAct() {
        return returnUrl != null;
    }

    /** The connector asks the customer to go to {@code url} (written with the REQUIRE_ACTION transition). */
    CustomerAction asking(String url) {
        return new CustomerAction(returnUrl, url, requiredAt);
    }

    /** After a transition to {@code target} at {@code now}: entering REQUIRES_ACTION starts its clock. */
    CustomerAction after(PaymentStatus target, Instant now) {
        return target == PaymentStatus.REQUIRES_ACTION ? new CustomerAction(returnUrl, nextActionUrl, now) : this;
    }

    /** When a payment waiting for its customer since {@link #requiredAt} expires; null when it never waited. */
    public @Nullable Instant expiresAt(Duration expiresAfter) {
        return requiredAt == null ? null : requiredAt.plus(expiresAfter);
    }
}
