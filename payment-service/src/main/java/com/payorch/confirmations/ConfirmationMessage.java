package com.payorch.confirmations;

import com.payorch.events.Event;
import com.payorch.payments.Payment;
import java.math.BigDecimal;
import java.util.Currency;

/**
 * The confirmation e-mail for one activated booking. Its Message-ID is derived from the booking.activated event,
 * so every (re)send of the same confirmation carries the same id and mail systems can recognise a duplicate.
 */
record ConfirmationMessage(String merchantId, String bookingId, String paymentId, String eventId, String from,
                           String recipient, String messageId, String subject, String text) {

    static ConfirmationMessage of(Event activated, Payment payment, String from) {
        String amount = amount(payment.amount(), payment.currency()) + " " + payment.currency();
        String text = "Your booking " + activated.bookingId() + " is confirmed.\n\n"
                + "We have received your payment of " + amount + " (payment " + payment.id() + ").\n"
                + (payment.description() == null ? "" : "\n" + payment.description() + "\n");
        return new ConfirmationMessage(activated.merchantId(), activated.bookingId(), payment.id(), activated.id(),
                from, payment.customerEmail(), messageIdFor(activated.id()),
                "Booking " + activated.bookingId() + " confirmed: " + amount, text);
    }

    /**
     * The cancellation e-mail of a booking whose payment was refunded in full (what was captured), or whose hold was
     * released (nothing was taken); its Message-ID from the event.
     */
    static ConfirmationMessage cancellationOf(Event cancelled, Payment payment, String from) {
        boolean released = payment.status() == com.payorch.statemachine.PaymentStatus.CANCELLED;
        long given = released ? payment.amount() : payment.hold().amountCaptured();
        String amount = amount(given, payment.currency()) + " " + payment.currency();
        String what = released
                ? "The hold of " + amount + " on your payment method (payment " + payment.id()
                        + ") has been released; nothing was charged.\n"
                : "Your payment of " + amount + " (payment " + payment.id() + ") has been refunded in full.\n";
        String text = "Your booking " + cancelled.bookingId() + " is cancelled.\n\n" + what
                + (payment.description() == null ? "" : "\n" + payment.description() + "\n");
        return new ConfirmationMessage(cancelled.merchantId(), cancelled.bookingId(), payment.id(), cancelled.id(),
                from, payment.customerEmail(), messageIdFor(cancelled.id()),
                "Booking " + cancelled.bookingId() + " cancelled: " + amount + (released ? " released" : " refunded"),
                text);
    }

    static String messageIdFor(String eventId) {
        return "<" + eventId + "@payorch.local>";
    }

    /** The minor-unit integer of the API as a decimal amount: JPY 12000 is "12000", USD 1200 is "12.00". */
    static String amount(long minorUnits, String currency) {
        int digits = Math.max(0, Currency.getInstance(currency).getDefaultFractionDigits());
        return BigDecimal.valueOf(minorUnits, digits).toPlainString();
    }

    /** For logs: the first character of the local part and the domain, e.g. g***@example.com. */
    String maskedRecipient() {
        int at = recipient.lastIndexOf('@');
        return at <= 0 ? "***" : recipient.charAt(0) + "***" + recipient.substring(at);
    }
}
