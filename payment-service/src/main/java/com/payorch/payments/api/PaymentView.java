package com.payorch.payments.api;

import com.payorch.payments.Attempt;
import com.payorch.payments.Hold;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentWithHistory;
import com.payorch.payments.PaymentTransition;
import com.payorch.statemachine.PaymentStatus;

import tools.jackson.databind.ObjectMapper;
import com.payorch.support.Timestamps;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import com.payorch.support.Page;
import com.payorch.web.Pagination;
import org.springframework.stereotype.Component;

/** The payment resource of the API, rendered once so that a stored response and a live one are the same bytes. */
@Component
public class PaymentView {

    record HistoryEntry(String from, String to, String event, String source, String sourceId, String at) {
    }

    record AttemptEntry(int number, String connector, String reference, String status, String failureReason,
                        String createdAt) {
    }

    /** Where the customer must go while the payment waits for them: `{"type": "redirect", "url": "…"}`. */
    record NextAction(String type, String url) {
    }

    record Resource(String id, String bookingId, long amount, String currency, String status, long version,
                    String paymentMethod, String failureReason, int attempt, String connector,
                    String connectorReference, List<AttemptEntry> attempts, long amountRefunded,
                    long amountDisputed, String captureMethod, long amountCapturable, long amountCaptured,
                    String authorizationExpiresAt,
                    String cancelRequestedAt, String returnUrl, NextAction nextAction, String createdAt,
                    String updatedAt, Map<String, String> metadata, List<HistoryEntry> history) {
    }

    private final ObjectMapper objectMapper;

    public PaymentView(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    public Resource resource(PaymentWithHistory found) {
        Payment payment = found.payment();
        Hold hold = payment.hold();
        boolean authorized = payment.status() == PaymentStatus.AUTHORIZED;
        return new Resource(payment.id(), payment.bookingId(), payment.amount(), payment.currency(),
                payment.status().name(), payment.version(), payment.paymentMethod(), payment.failureReason(),
                payment.attempt(), payment.connector(), found.currentAttempt().reference(),
                found.attempts().stream().map(PaymentView::entry).toList(), payment.amountRefunded(),
                payment.amountDisputed(), hold.captureMethod().value(), amountCapturable(payment),
                hold.amountCaptured(),
                authorized && hold.expiresAt() != null ? Timestamps.format(hold.expiresAt()) : null,
                hold.cancelRequestedAt() == null ? null : Timestamps.format(hold.cancelRequestedAt()),
                payment.action().returnUrl(), nextAction(payment), Timestamps.format(payment.createdAt()), Timestamps.format(payment.updatedAt()),
                new TreeMap<>(payment.metadata()), found.history().stream().map(PaymentView::entry).toList());
    }

    public byte[] render(PaymentWithHistory found) {
        return json(resource(found));
    }

    /** A page of payments: `{"data": […], "has_more": …}`. */
    public byte[] renderPage(Page<PaymentWithHistory> page) {
        return json(Pagination.body(page.map(this::resource)));
    }

    /**
     * What a capture may take now: the whole amount of an AUTHORIZED hold, none otherwise; none either once a cancel
     * was recorded, since no capture may follow it.
     */
    static long amountCapturable(Payment payment) {
        return payment.status() == PaymentStatus.AUTHORIZED && !payment.hold().cancelRequested() ? payment.amount() : 0;
    }

    /** The connector's page for the customer, only while the payment waits for them. */
    static NextAction nextAction(Payment payment) {
        String url = payment.action().nextActionUrl();
        return payment.status() == PaymentStatus.REQUIRES_ACTION && url != null ? new NextAction("redirect", url)
                : null;
    }

    public static String etag(Payment payment) {
        return "\"" + payment.version() + "\"";
    }

    private static AttemptEntry entry(Attempt a) {
        return new AttemptEntry(a.number(), a.connector(), a.reference(), a.status().name(), a.failureReason(),
                Timestamps.format(a.createdAt()));
    }

    private static HistoryEntry entry(PaymentTransition t) {
        return new HistoryEntry(t.from() == null ? null : t.from().name(), t.to().name(), t.event().name(),
                t.source().value(), t.sourceId(), Timestamps.format(t.at()));
    }

    private byte[] json(Object value) {
        return objectMapper.writeValueAsBytes(value);
    }
}
