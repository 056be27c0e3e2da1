package com.payorch.chaos.check;

import com.payorch.chaos.check.Checker.InvariantResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Invariant 5: a booking is activated iff a COMPLETED payment of it exists, activated once, cancelled at most once
 * (and only when that payment is refunded in full). Holds (issue 23): a manual payment activates its booking when it
 * becomes AUTHORIZED (once: capturing does not activate again) and a hold released after that cancels it; so the
 * payment that backs a booking is one COMPLETED, AUTHORIZED or CAPTURING, or CANCELLED after it was authorised.
 *
 * <p>For every row of {@code bookings} (merchant_id, id), with its merchant's payments of that booking:
 * <ul>
 *   <li>{@code status} ACTIVE or CANCELLED iff exactly one payment is COMPLETED (none: AWAITING_PAYMENT), and then
 *       {@code bookings.payment_id} is that payment and {@code activated_at} is set;</li>
 *   <li>transitions to COMPLETED over its payments ({@code payment_transitions}): one if activated, else none;
 *       {@code booking.activated} events (merchant_id, booking_id): one if activated, else none;</li>
 *   <li>CANCELLED iff the completed payment's {@code amount_refunded} equals its amount (or did, before refunds of it
 *       were reversed: a reversal leaves the booking CANCELLED); {@code cancelled_at} set iff
 *       CANCELLED; {@code booking.cancelled} events: one if CANCELLED, else none.</li>
 * </ul>
 * Offending keys: booking ids.
 */
final class BookingLifecycle implements Invariant {

    @Override
    public String name() {
        return "booking-active-iff-completed";
    }

    @Override
    public InvariantResult check(CheckContext context) {
        Snapshot db = context.db();
        Map<String, List<Snapshot.Payment>> paymentsByBooking = new HashMap<>();
        db.payments().forEach(p -> paymentsByBooking.computeIfAbsent(Snapshot.bookingKey(p.merchantId(),
                p.bookingId()), k -> new ArrayList<>()).add(p));
        Map<String, Integer> completions = new HashMap<>();
        db.transitions().stream().filter(t -> "COMPLETED".equals(t.toStatus()))
                .forEach(t -> completions.merge(t.paymentId(), 1, Integer::sum));
        // A hold's activation is its AUTHORIZE transition (a failed capture's return to AUTHORIZED is not one).
        Map<String, Integer> authorisations = new HashMap<>();
        db.transitions().stream().filter(t -> "AUTHORIZED".equals(t.toStatus()) && "AUTHORIZE".equals(t.event()))
                .forEach(t -> authorisations.merge(t.paymentId(), 1, Integer::sum));
        Map<String, Integer> activatedEvents = new HashMap<>();
        Map<String, Integer> cancelledEvents = new HashMap<>();
        // Refunds the connector reported failed after they succeeded (REVERSE): their amount is refundable again, but
        // a booking their full refund cancelled stays CANCELLED (contract v3).
        Map<String, Long> refundAmounts = new HashMap<>();
        db.refunds().forEach(r -> refundAmounts.put(r.id(), r.amount()));
        Map<String, Long> reversedByPayment = new HashMap<>();
        for (Snapshot.Event event : db.events()) {
            if (event.type().equals("refund.reversed") && event.paymentId() != null) {
                String refundId = Operations.json(event.data()).path("refundId").asText("?");
                reversedByPayment.merge(event.paymentId(), refundAmounts.getOrDefault(refundId, 0L), Long::sum);
            }
        }
        for (Snapshot.Event event : db.events()) {
            if (event.bookingId() == null) {
                continue;
            }
            String key = Snapshot.bookingKey(event.merchantId(), event.bookingId());
            if (event.type().equals("booking.activated")) {
                activatedEvents.merge(key, 1, Integer::sum);
            } else if (event.type().equals("booking.cancelled")) {
                cancelledEvents.merge(key, 1, Integer::sum);
            }
        }
        Set<String> offending = new LinkedHashSet<>();
        List<String> problems = new ArrayList<>();
        int active = 0;
        int cancelled = 0;
        for (Snapshot.Booking booking : db.bookings()) {
            String key = Snapshot.bookingKey(booking.merchantId(), booking.id());
            List<Snapshot.Payment> payments = paymentsByBooking.getOrDefault(key, List.of());
            List<Snapshot.Payment> completed = payments.stream().filter(BookingLifecycle::backsItsBooking).toList();
            int completedTransitions = payments.stream().mapToInt(p -> p.manual()
                    ? authorisations.getOrDefault(p.id(), 0) : completions.getOrDefault(p.id(), 0)).sum();
            boolean activated = booking.status().equals("ACTIVE") || booking.status().equals("CANCELLED");
            active += booking.status().equals("ACTIVE") ? 1 : 0;
            cancelled += booking.status().equals("CANCELLED") ? 1 : 0;
            int expectActivated = activated ? 1 : 0;
            String problem = null;
            if (activated != !completed.isEmpty() || completed.size() > 1) {
                problem = "status " + booking.status() + " with " + completed.size() + " COMPLETED payments";
            } else if (activated && (!booking.activated()
                    || !completed.get(0).id().equals(booking.paymentId()))) {
                problem = "activated by " + booking.paymentId() + " but the COMPLETED payment is "
                        + completed.get(0).id() + (booking.activated() ? "" : " (no activated_at)");
            } else if (completedTransitions != expectActivated) {
                problem = completedTransitions + " transitions to COMPLETED for status " + booking.status();
            } else if (activatedEvents.getOrDefault(key, 0) != expectActivated) {
                problem = activatedEvents.getOrDefault(key, 0) + " booking.activated events for status "
                        + booking.status();
            } else {
                boolean released = activated && completed.get(0).status().equals("CANCELLED");
                boolean refundedInFull = activated && (released || completed.get(0).amountRefunded() > 0
                        && completed.get(0).amountRefunded() == completed.get(0).amountCaptured());
                boolean isCancelled = booking.status().equals("CANCELLED");
                if (isCancelled && !refundedInFull && activated) {
                    Snapshot.Payment paid = completed.get(0);
                    refundedInFull = paid.amountRefunded() + reversedByPayment.getOrDefault(paid.id(), 0L)
                            >= paid.amountCaptured();
                }
                int cancellations = cancelledEvents.getOrDefault(key, 0);
                if (isCancelled != refundedInFull) {
                    problem = "status " + booking.status() + " but its payment (" + (activated
                            ? completed.get(0).status() + ") refunded " + completed.get(0).amountRefunded() + " of "
                            + completed.get(0).amountCaptured() + " captured" : "none) refunded nothing");
                } else if (booking.cancelled() != isCancelled || cancellations != (isCancelled ? 1 : 0)) {
                    problem = cancellations + " booking.cancelled events, cancelled_at "
                            + (booking.cancelled() ? "set" : "not set") + ", status " + booking.status();
                }
            }
            if (problem != null) {
                problems.add("booking " + key + ": " + problem);
                offending.add(booking.id());
            }
        }
        String detail = db.bookings().size() + " bookings (" + active + " ACTIVE, " + cancelled + " CANCELLED)"
                + (problems.isEmpty() ? ": each activated once iff COMPLETED or held, cancelled at most once"
                        : "; " + problems.size() + " problems, first: " + problems.get(0));
        return new InvariantResult(name(), problems.isEmpty(), detail, offending);
    }

    /** COMPLETED, a hold (AUTHORIZED, CAPTURING), or a hold released after it activated the booking. */
    private static boolean backsItsBooking(Snapshot.Payment payment) {
        return switch (payment.status()) {
            case "COMPLETED", "AUTHORIZED", "CAPTURING" -> true;
            case "CANCELLED" -> payment.authorized();
            default -> false;
        };
    }
}
