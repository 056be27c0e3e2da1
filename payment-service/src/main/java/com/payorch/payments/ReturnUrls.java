package com.payorch.payments;

/**
 * The address a connector sends the customer back to: the merchant's `returnUrl` with {@code payment_id=<id>} added
 * to its query (before any fragment), so the merchant's page knows which payment to complete.
 */
final class ReturnUrls {

    private ReturnUrls() {
    }

    static String withPaymentId(String returnUrl, String paymentId) {
        int hash = returnUrl.indexOf('#');
        String beforeFragment = hash < 0 ? returnUrl : returnUrl.substring(0, hash);
        String fragment = hash < 0 ? "" : returnUrl.substring(hash);
        String separator = beforeFragment.contains("?")
                ? (beforeFragment.endsWith("?") || beforeFragment.endsWith("&") ? "" : "&") : "?";
        return beforeFragment + separator + "payment_id=" + paymentId + fragment;
    }
}
