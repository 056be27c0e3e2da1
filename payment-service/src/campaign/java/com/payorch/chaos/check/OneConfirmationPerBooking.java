package com.payorch.chaos.check;

import com.payorch.chaos.CampaignFacts.ReceivedMail;
import com.payorch.chaos.check.Checker.InvariantResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Invariant 8: exactly one confirmation e-mail per activated booking, none for any other; likewise one cancellation
 * e-mail per cancelled booking, none for any other.
 *
 * <p>A booking should have a confirmation when {@code bookings.activated_at} is set and the payment that activated
 * it ({@code bookings.payment_id}) has a {@code customer_email}; a cancellation when it is CANCELLED and that payment
 * has one. A received mail ({@link com.payorch.chaos.CampaignFacts#mails}) is a confirmation when its subject is
 * {@code Booking <id> confirmed: …} and a cancellation when it is {@code Booking <id> cancelled: …}
 * ({@code confirmations.ConfirmationMessage}); it is attributed to a booking by the {@code (payment pay_…)} its text
 * names (the payment's merchant and booking, quoted-printable soft breaks removed first), else by the subject's
 * booking id and the recipient. Each expected mail must be received exactly once, addressed to the payment's
 * {@code customer_email}; no mail may belong to any other booking. An e-mail is a message, identified by its
 * Message-ID: copies with the same Message-ID (SMTP hands a message over at least once; the service derives the
 * Message-ID from the {@code booking.activated} or {@code booking.cancelled} event, so a copy sent again after a
 * crash between the server's acceptance and the recording carries the same one, while a second activation would
 * not) count once and are reported as copies. The outbox side is checked alongside: one
 * {@code booking.confirmation_sent} event per expected confirmation, none otherwise. Offending keys: booking ids.
 */
final class OneConfirmationPerBooking implements Invariant {

    private static final Pattern SUBJECT = Pattern.compile("^Booking (\\S+) (confirmed|cancelled):");
    private static final Pattern PAYMENT = Pattern.compile("\\(payment (pay_[A-Za-z0-9]+)\\)");

    @Override
    public String name() {
        return "one-confirmation-email-per-activated-booking";
    }

    @Override
    public InvariantResult check(CheckContext context) {
        Snapshot db = context.db();
        Map<String, Snapshot.Payment> payments = db.paymentsById();
        Map<String, List<Snapshot.Booking>> bookingsById = new HashMap<>();
        db.bookings().forEach(b -> bookingsById.computeIfAbsent(b.id(), k -> new ArrayList<>()).add(b));
        Map<String, Integer> confirmations = new HashMap<>();
        Map<String, Integer> cancellations = new HashMap<>();
        Map<String, Set<String>> recipients = new HashMap<>();
        Set<String> offending = new LinkedHashSet<>();
        List<String> problems = new ArrayList<>();
        int ours = 0;
        int copies = 0;
        Set<String> seenMessages = new java.util.HashSet<>();
        for (ReceivedMail mail : context.facts().mails()) {
            Matcher subject = SUBJECT.matcher(mail.subject() == null ? "" : mail.subject().trim());
            if (!subject.find()) {
                continue;
            }
            ours++;
            if (mail.messageId() != null && !seenMessages.add(mail.messageId())) {
                copies++;
                continue;
            }
            String bookingId = subject.group(1);
            boolean confirmation = subject.group(2).equals("confirmed");
            String key = null;
            Matcher payment = PAYMENT.matcher(mail.body() == null ? "" : mail.body().replace("=\r\n", "")
                    .replace("=\n", ""));
            if (payment.find() && payments.containsKey(payment.group(1))) {
                Snapshot.Payment p = payments.get(payment.group(1));
                key = Snapshot.bookingKey(p.merchantId(), p.bookingId());
            } else {
                for (Snapshot.Booking booking : bookingsById.getOrDefault(bookingId, List.of())) {
                    Snapshot.Payment p = booking.paymentId() == null ? null : payments.get(booking.paymentId());
                    if (p != null && p.customerEmail() != null && mail.to().stream()
                            .anyMatch(to -> to.toLowerCase().contains(p.customerEmail().toLowerCase()))) {
                        key = Snapshot.bookingKey(booking.merchantId(), booking.id());
                    }
                }
            }
            if (key == null) {
                problems.add("mail \"" + mail.subject() + "\" to " + mail.to() + " belongs to no known booking");
                offending.add(bookingId);
                continue;
            }
            (confirmation ? confirmations : cancellations).merge(key, 1, Integer::sum);
            recipients.computeIfAbsent(key + (confirmation ? "+" : "-"), k -> new LinkedHashSet<>())
                    .addAll(mail.to());
        }
        Map<String, Integer> sentEvents = new HashMap<>();
        db.events().stream().filter(e -> e.type().equals("booking.confirmation_sent") && e.bookingId() != null)
                .forEach(e -> sentEvents.merge(Snapshot.bookingKey(e.merchantId(), e.bookingId()), 1,
                        Integer::sum));
        int expectedConfirmations = 0;
        int expectedCancellations = 0;
        for (Snapshot.Booking booking : db.bookings()) {
            String key = Snapshot.bookingKey(booking.merchantId(), booking.id());
            Snapshot.Payment payment = booking.paymentId() == null ? null : payments.get(booking.paymentId());
            String email = payment == null ? null : payment.customerEmail();
            int confirm = booking.activated() && email != null ? 1 : 0;
            int cancel = booking.status().equals("CANCELLED") && email != null ? 1 : 0;
            expectedConfirmations += confirm;
            expectedCancellations += cancel;
            String problem = null;
            if (confirmations.getOrDefault(key, 0) != confirm) {
                problem = confirmations.getOrDefault(key, 0) + " confirmation e-mails, expected " + confirm;
            } else if (cancellations.getOrDefault(key, 0) != cancel) {
                problem = cancellations.getOrDefault(key, 0) + " cancellation e-mails, expected " + cancel;
            } else if (sentEvents.getOrDefault(key, 0) != confirm) {
                problem = sentEvents.getOrDefault(key, 0) + " booking.confirmation_sent events, expected " + confirm;
            } else if (email != null && (!addressedTo(recipients.get(key + "+"), email)
                    || !addressedTo(recipients.get(key + "-"), email))) {
                problem = "e-mail not addressed to " + email;
            }
            if (problem != null) {
                problems.add("booking " + key + ": " + problem);
                offending.add(booking.id());
            }
        }
        String detail = ours + " booking e-mails received (" + copies + " handed over twice: same Message-ID), "
                + expectedConfirmations + " confirmations and " + expectedCancellations + " cancellations expected"
                + (problems.isEmpty() ? ": exactly one each, none for other bookings"
                        : "; " + problems.size() + " problems, first: " + problems.get(0));
        return new InvariantResult(name(), problems.isEmpty(), detail, offending);
    }

    private static boolean addressedTo(Set<String> recipients, String email) {
        return recipients == null || recipients.stream().allMatch(to -> to.toLowerCase().contains(email.toLowerCase()));
    }
}
