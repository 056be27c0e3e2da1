package com.payorch.webhooks;

import com.payorch.gateway.ConnectorNotification;

/**
 * Where a verified notification is applied. A dispute's report is never a charge's outcome: it is bound to its attempt
 * like one, then applied to the payment's disputes, never through the charge's life cycle.
 */
enum NotificationRoute {
    /** A charge its connector says it never made ({@link ChargesNeverMade}): ignored, whatever it reports. */
    CHARGE_NEVER_MADE,
    /** A refund's outcome. */
    REFUND,
    /** A report about a dispute of the charge ({@link DisputeNotifications}). */
    DISPUTE,
    /** The charge's outcome. */
    CHARGE;

    static NotificationRoute of(ConnectorNotification notification) {
        if (ChargesNeverMade.isAbout(notification)) {
            return CHARGE_NEVER_MADE;
        }
        if (notification.refundId() != null) {
            return REFUND;
        }
        return notification.isAboutADispute() ? DISPUTE : CHARGE;
    }
}
