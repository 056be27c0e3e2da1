package com.payorch.testsupport;

import com.payorch.fakes.FakeAdyen;
import com.payorch.fakes.FakeBraintree;
import com.payorch.fakes.FakeStripe;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Contract v3's money invariant, one definition for the integration tests and the fault campaign: <b>every charge a
 * connector holds for one of the service's payments either backs that payment (COMPLETED or AUTHORIZED, on exactly
 * that attempt at that connector, and the attempt's recorded reference when there is one) or is given back exactly
 * once as an orphaned charge</b> (one refund row {@code orphaned_charge} for that attempt that is not FAILED, and one
 * refund at the connector for the charge's whole amount); refunds never exceed what they refund (per payment, per
 * orphaned attempt, per charge at the connector) and the payment row's sums agree with its refund rows; a
 * SUCCEEDED refund of a payment is backed by refunds at its connector; no attempt has two charges.
 *
 * <p>Holds (issue 23): an authorisation a connector holds backs its payment while that payment is AUTHORIZED or
 * CAPTURING on that attempt; a captured hold backs it when it is COMPLETED with {@code amount_captured} equal to what
 * the connector captured; otherwise the hold is given back exactly once (released, or the orphan refund of what was
 * captured). Captured never exceeds authorised (at the connector and in the payment row); a connector holds at most
 * one capture key per capture number, at most one capture that took money and at most one release per charge, and
 * never both a capture and a release (a capture racing a cancel has one winner).
 *
 * <p>Inputs are plain values: the charges the connectors hold ({@link #stripeCharges}, {@link #adyenCharges},
 * {@link #braintreeCharges} read the fakes; {@link #sandboxCharges} reads {@code sandbox_charges}) and the service's
 * rows ({@link Books#read}). {@link #check} answers every violation, each naming payment, attempt, connector and
 * reference and saying why; none when the invariant holds.
 */
public final class MoneyInvariant {

    /** What a violation breaks; the campaign's checker groups them into its invariants by kind. */
    public enum Kind {
        /** A charge that names no payment attempt the service holds: money the service does not know of. */
        CHARGE_WITHOUT_ATTEMPT,
        /** A charge at another connector than the one the attempt was sent to. */
        CHARGE_AT_ANOTHER_CONNECTOR,
        /** More than one charge (that took money or may still) for one attempt: a customer charged twice. */
        TWO_CHARGES_FOR_ONE_ATTEMPT,
        /** A COMPLETED or AUTHORIZED payment whose current attempt holds no charge that took money. */
        PAYMENT_WITHOUT_ITS_CHARGE,
        /** A charge that backs nothing and is not given back exactly once (at the connector and as a refund row). */
        ORPHAN_NOT_GIVEN_BACK_ONCE,
        /** An automatic refund for an attempt not marked orphaned, two for one attempt, or an orphan without one. */
        ORPHAN_REFUND_ROWS,
        /** Refunds above the amount they refund: of a payment, an orphaned attempt or a charge at its connector. */
        OVER_REFUNDED,
        /** A payment row whose amount_reserved / amount_refunded disagree with its refund rows, or refunded while not
         *  COMPLETED/AUTHORIZED. */
        PAYMENT_ROW_DISAGREES,
        /** The service says a payment's refunds SUCCEEDED for more than its connector gave back (a reversed refund
         *  still counted). */
        REFUND_NOT_AT_CONNECTOR,
        /** More captured than authorised: at the connector, or in the payment row. */
        CAPTURED_ABOVE_AUTHORISED,
        /** Two capture keys for one capture number, or two captures that took money, for one charge. */
        CAPTURED_TWICE,
        /** A hold released twice, or released and captured both: a capture racing a cancel with two winners. */
        RELEASED_TWICE,
        /** A COMPLETED hold whose {@code amount_captured} is not what its connector captured. */
        CAPTURE_DISAGREES
    }

    public record Violation(Kind kind, @Nullable String paymentId, @Nullable Integer attempt,
                            @Nullable String connector, @Nullable String reference, String why) {

        @Override
        public String toString() {
            return kind + " payment " + paymentId + " attempt " + attempt + " at " + connector + " ("
                    + reference + "): " + why;
        }
    }

    /**
     * How far the connector got with a charge. A hold is {@code HELD} while authorised and neither captured nor
     * released, {@code TOOK_MONEY} once a capture took money, {@code RELEASED} once released without a capture.
     */
    public enum ChargeStatus {
        TOOK_MONEY, HELD, RELEASED, PENDING, DECLINED
    }

    /**
     * One capture a connector holds of a hold.
     *
     * @param number the capture's number (its connector key names it: {@code <attempt key>-capture-<n>})
     * @param tookMoney the connector captured it (not refused, not failed, not still processing)
     */
    public record CaptureAtConnector(int number, String key, long amount, boolean tookMoney) {
    }

    /**
     * What a connector holds of a manual charge beyond its authorisation (of the charge's whole amount).
     *
     * @param releases how many releases (cancels) of it the connector accepted
     */
    public record Hold(List<CaptureAtConnector> captures, int releases) {

        public static Hold open() {
            return new Hold(List.of(), 0);
        }

        /** What the connector captured: the sum of the captures that took money. */
        public long captured() {
            return captures.stream().filter(CaptureAtConnector::tookMoney).mapToLong(CaptureAtConnector::amount).sum();
        }
    }

    /**
     * One charge a connector holds.
     *
     * @param paymentId the payment it names (null: it names none)
     * @param attempt the attempt it names (null: none could be told)
     * @param refunds the refunds the connector holds of it
     * @param hold its captures and releases when it was a manual (hold) charge, else null
     */
    public record Charge(String connector, String reference, @Nullable String paymentId, @Nullable Integer attempt,
                         long amount, @Nullable String currency, ChargeStatus status, List<ChargeRefund> refunds,
                         @Nullable Hold hold) {

        /** An automatic charge: it takes its whole amount when it succeeds. */
        public Charge(String connector, String reference, @Nullable String paymentId, @Nullable Integer attempt,
                      long amount, @Nullable String currency, ChargeStatus status, List<ChargeRefund> refunds) {
            this(connector, reference, paymentId, attempt, amount, currency, status, refunds, null);
        }

        /** The money the connector took: the whole amount of an automatic charge, what a hold captured. */
        public long taken() {
            return hold == null ? amount : hold.captured();
        }

        /** The money the charge holds or took for its payment: backed, or owed back. */
        boolean holdsMoney() {
            return status == ChargeStatus.TOOK_MONEY || status == ChargeStatus.HELD;
        }

        /** Refunded or still refunding: what the connector has not refused to give back. */
        public long givenBack() {
            return refunds.stream().filter(r -> !r.gaveNothingBack()).mapToLong(ChargeRefund::amount).sum();
        }

        public long liveRefunds() {
            return refunds.stream().filter(r -> !r.gaveNothingBack()).count();
        }

        String attemptKey() {
            return paymentId + "#" + attempt;
        }
    }

    /** @param gaveNothingBack failed, declined, refused, cancelled or reversed at the connector */
    public record ChargeRefund(String reference, long amount, boolean gaveNothingBack) {
    }

    /** @param amountCaptured what the service says was taken (the whole amount of a COMPLETED automatic payment) */
    public record Payment(String id, String status, int attempt, String connector, long amount,
                          long amountReserved, long amountRefunded, long amountCaptured) {

        /** A payment as before holds: a COMPLETED one captured its whole amount. */
        public Payment(String id, String status, int attempt, String connector, long amount, long amountReserved,
                       long amountRefunded) {
            this(id, status, attempt, connector, amount, amountReserved, amountRefunded,
                    status.equals("COMPLETED") ? amount : 0);
        }

        boolean holding() {
            return status.equals("AUTHORIZED") || status.equals("CAPTURING");
        }
    }

    public record Attempt(String paymentId, int number, String connector, @Nullable String reference,
                          boolean orphaned) {
    }

    /** @param countsAgainstPayment false for the automatic refund of an orphaned charge */
    public record Refund(String id, String paymentId, int attempt, long amount, String status,
                         @Nullable String connector, @Nullable String chargeReference, boolean countsAgainstPayment) {
    }

    /** The service's rows the invariant reads. */
    public record Books(List<Payment> payments, List<Attempt> attempts, List<Refund> refunds) {

        /** Reads them over {@code connection} (its schema set), in one statement each. */
        public static Books read(Connection connection) throws SQLException {
            return new Books(
                    rows(connection, """
                            select id, status, attempt, connector, amount, amount_reserved, amount_refunded,
                                   amount_captured
                            from payments order by created_at, id""",
                            rs -> new Payment(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getString(4),
                                    rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8))),
                    rows(connection, """
                            select payment_id, number, connector, reference, orphaned_at is not null
                            from payment_attempts order by payment_id, number""",
                            rs -> new Attempt(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4),
                                    rs.getBoolean(5))),
                    rows(connection, """
                            select id, payment_id, attempt, amount, status, connector, charge_reference,
                                   counts_against_payment
                            from refunds order by created_at, id""",
                            rs -> new Refund(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getLong(4),
                                    rs.getString(5), rs.getString(6), rs.getString(7), rs.getBoolean(8))));
        }
    }

    /** A capture's connector key, {@code <attempt key>-capture-<n>}, names its number. */
    private static final java.util.regex.Pattern CAPTURE_NUMBER = java.util.regex.Pattern.compile("-capture-(\\d+)$");

    private MoneyInvariant() {
    }

    // ---- the charges the connectors hold ---------------------------------------------------------------------------

    /**
     * The sandbox's charges ({@code sandbox_charges}) with their refunds ({@code sandbox_refunds}). A manual charge
     * (V21) is a hold: {@code authorized}, {@code capturing} and {@code capture_failed} hold the money,
     * {@code succeeded} took {@code amount_captured} under capture {@code captures} (the earlier ones failed: the
     * sandbox takes another capture only after a failed one), {@code cancelled} was released, unless a refund row
     * records it (the sandbox gives an orphaned hold back by releasing it and writing the refund), then it was given
     * back by that refund.
     */
    public static List<Charge> sandboxCharges(Connection connection) throws SQLException {
        Map<String, List<ChargeRefund>> refunds = new HashMap<>();
        for (String[] row : rows(connection, "select charge_id, id, amount, status from sandbox_refunds",
                rs -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)})) {
            refunds.computeIfAbsent(row[0], k -> new ArrayList<>())
                    .add(new ChargeRefund(row[1], Long.parseLong(row[2]), "failed".equals(row[3])));
        }
        return rows(connection, "select * from sandbox_charges", rs -> {
            boolean holds = hasColumn(rs, "capture_method");
            return sandboxCharge(rs.getString("id"), rs.getString("payment_id"), rs.getInt("attempt"),
                    rs.getLong("amount"), rs.getString("currency").trim(), rs.getString("status"),
                    holds ? rs.getString("capture_method") : "automatic", holds ? rs.getInt("captures") : 0,
                    holds ? rs.getString("capture_key") : null,
                    holds ? (Long) rs.getObject("capture_amount", Long.class) : null,
                    holds ? (Long) rs.getObject("amount_captured", Long.class) : null,
                    refunds.getOrDefault(rs.getString("id"), List.of()));
        });
    }

    /** One sandbox charge as the invariant reads it (the campaign's checker reads its rows itself). */
    public static Charge sandboxCharge(String id, String paymentId, int attempt, long amount, String currency,
                                       String status, @Nullable String captureMethod, int captures,
                                       @Nullable String captureKey, @Nullable Long captureAmount,
                                       @Nullable Long amountCaptured, List<ChargeRefund> given) {
        ChargeStatus charge = switch (status) {
            case "succeeded" -> ChargeStatus.TOOK_MONEY;
            case "failed" -> ChargeStatus.DECLINED;
            case "authorized", "capturing", "capture_failed" -> ChargeStatus.HELD;
            case "cancelled" -> given.stream().anyMatch(r -> !r.gaveNothingBack()) ? ChargeStatus.HELD
                    : ChargeStatus.RELEASED;
            default -> ChargeStatus.PENDING;
        };
        Hold hold = null;
        if ("manual".equals(captureMethod)) {
            // The sandbox counts the captures it accepted and keeps the last one's key, whose number is the
            // service's (captures the sandbox refused were numbered too); the earlier ones failed.
            List<CaptureAtConnector> sent = new ArrayList<>();
            for (int n = 1; n <= captures; n++) {
                boolean last = n == captures;
                boolean took = last && status.equals("succeeded");
                java.util.regex.Matcher named = CAPTURE_NUMBER.matcher(last && captureKey != null ? captureKey : "");
                int number = named.find() ? Integer.parseInt(named.group(1)) : n;
                sent.add(new CaptureAtConnector(number, last && captureKey != null ? captureKey : "capture " + n
                        + " (failed)", took && amountCaptured != null ? amountCaptured
                        : last && captureAmount != null ? captureAmount : 0, took));
            }
            hold = new Hold(sent, charge == ChargeStatus.RELEASED ? 1 : 0);
        }
        return new Charge("sandbox", id, paymentId, attempt, amount, currency, charge, given, hold);
    }

    /** Whether the row has the column (a schema before a migration that adds it). */
    public static boolean hasColumn(ResultSet rs, String column) throws SQLException {
        var meta = rs.getMetaData();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            if (meta.getColumnName(i).equalsIgnoreCase(column)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every PaymentIntent the fake Stripe created, bound by the {@code metadata[payment_id]} and
     * {@code metadata[attempt]} the service sent (contract v3, exact binding); {@code reversedRefunds} names the
     * refunds Stripe later reported failed after they succeeded.
     */
    public static List<Charge> stripeCharges(FakeStripe stripe, Set<String> reversedRefunds) {
        List<Charge> charges = new ArrayList<>();
        Set<String> charged = Set.copyOf(stripe.chargedIntents());
        for (Map<String, Object> intent : stripe.intents()) {
            String id = (String) intent.get("id");
            Map<?, ?> metadata = (Map<?, ?>) intent.getOrDefault("metadata", Map.of());
            String status = String.valueOf(intent.get("status"));
            boolean manual = "manual".equals(intent.get("capture_method"));
            ChargeStatus charge = status.equals("succeeded") ? ChargeStatus.TOOK_MONEY
                    : status.equals("requires_capture") ? ChargeStatus.HELD
                    : manual && status.equals("canceled") ? ChargeStatus.RELEASED
                    : charged.contains(id) || status.equals("processing") ? ChargeStatus.PENDING : ChargeStatus.DECLINED;
            // The fake keeps a PaymentIntent's state, not each capture's key: one capture of amount_received.
            Hold hold = !manual ? null : charge == ChargeStatus.TOOK_MONEY
                    ? new Hold(List.of(new CaptureAtConnector(1, id + "-capture", received(intent), true)), 0)
                    : new Hold(List.of(), charge == ChargeStatus.RELEASED ? 1 : 0);
            List<ChargeRefund> refunds = stripe.refundsOf(id).stream()
                    .map(r -> new ChargeRefund((String) r.get("id"), ((Number) r.get("amount")).longValue(),
                            gaveNothingBack(String.valueOf(r.get("status"))) || reversedRefunds.contains(r.get("id"))))
                    .toList();
            charges.add(new Charge("stripe", id, (String) metadata.get("payment_id"),
                    number(metadata.get("attempt")), ((Number) intent.get("amount")).longValue(),
                    upper(intent.get("currency")), charge, refunds, hold));
        }
        return charges;
    }

    /**
     * Every payment the fake Adyen processed. The attempt comes from {@code metadata.attempt} when the service sent
     * it, else from the attempt's idempotency key ({@code <payment id>} or {@code <payment id>-attempt-<n>}).
     * {@code Authorised} took money; {@code Received} took money when {@code succeededLater} names it (an
     * AUTHORISATION success was notified), {@code Refused} none. {@code failedRefunds}: refund pspReferences
     * notified as failed or reversed.
     */
    public static List<Charge> adyenCharges(FakeAdyen adyen, Set<String> succeededLater, Set<String> failedRefunds) {
        List<Charge> charges = new ArrayList<>();
        for (Map<String, Object> payment : adyen.payments()) {
            String psp = (String) payment.get("pspReference");
            Map<?, ?> amount = (Map<?, ?>) payment.get("amount");
            Map<?, ?> metadata = payment.get("metadata") instanceof Map<?, ?> m ? m : Map.of();
            String paymentId = (String) payment.get("reference");
            Integer attempt = number(metadata.get("attempt") != null ? metadata.get("attempt")
                    : payment.get("metadata.attempt"));
            if (attempt == null) {
                attempt = attemptOfKey(paymentId, (String) payment.get("idempotencyKey"));
            }
            String resultCode = String.valueOf(payment.get("resultCode"));
            ChargeStatus status = switch (resultCode) {
                case "Authorised" -> ChargeStatus.TOOK_MONEY;
                case "Received", "Pending" -> succeededLater.contains(psp) ? ChargeStatus.TOOK_MONEY
                        : ChargeStatus.PENDING;
                default -> ChargeStatus.DECLINED;
            };
            List<ChargeRefund> refunds = adyen.givenBack(psp).stream()
                    .map(r -> new ChargeRefund((String) r.get("pspReference"),
                            ((Number) ((Map<?, ?>) r.get("amount")).get("value")).longValue(),
                            failedRefunds.contains((String) r.get("pspReference"))
                                    || gaveNothingBack(String.valueOf(r.get("status")))))
                    .toList();
            charges.add(new Charge("adyen", psp, paymentId, attempt, ((Number) amount.get("value")).longValue(),
                    upper(amount.get("currency")), status, refunds));
        }
        return charges;
    }

    /**
     * The fake Braintree's sales for the attempts the service holds at Braintree: Braintree keeps no idempotency
     * key, the service sends the attempt's key as the sale's {@code orderId}. Amounts are decimal in the fake; they
     * are turned back into ISO minor units.
     */
    public static List<Charge> braintreeCharges(FakeBraintree braintree, Books books) {
        List<Charge> charges = new ArrayList<>();
        for (Attempt attempt : books.attempts()) {
            if (!attempt.connector().equals("braintree")) {
                continue;
            }
            String key = attempt.number() == 1 ? attempt.paymentId()
                    : attempt.paymentId() + "-attempt-" + attempt.number();
            for (Map<String, Object> sale : braintree.withOrderId(key)) {
                if (!"sale".equals(sale.get("type"))) {
                    continue;
                }
                String id = (String) sale.get("id");
                String status = String.valueOf(sale.get("status"));
                ChargeStatus charge = switch (status) {
                    case "authorized", "submitted_for_settlement", "settling", "settled", "settlement_pending" ->
                            ChargeStatus.TOOK_MONEY;
                    case "authorizing", "settlement_confirmed" -> ChargeStatus.PENDING;
                    default -> ChargeStatus.DECLINED;
                };
                String currency = String.valueOf(sale.get("currency-iso-code"));
                List<ChargeRefund> refunds = braintree.refundsOf(id).stream()
                        .map(r -> new ChargeRefund((String) r.get("id"), minorUnits(r.get("amount"), currency),
                                gaveNothingBack(String.valueOf(r.get("status")))))
                        .toList();
                charges.add(new Charge("braintree", id, attempt.paymentId(), attempt.number(),
                        minorUnits(sale.get("amount"), currency), currency, charge, refunds));
            }
        }
        return charges;
    }

    // ---- the check -------------------------------------------------------------------------------------------------

    /**
     * Every violation of the invariant over these charges and rows.
     *
     * @param settled whether the world has settled: then an orphan's refund must have SUCCEEDED (not merely be under
     *        way) and a COMPLETED payment's charge must have taken money
     */
    public static List<Violation> check(Collection<Charge> charges, Books books, boolean settled) {
        List<Violation> violations = new ArrayList<>();
        Map<String, Payment> payments = new LinkedHashMap<>();
        books.payments().forEach(p -> payments.put(p.id(), p));
        Map<String, Attempt> attempts = new HashMap<>();
        books.attempts().forEach(a -> attempts.put(a.paymentId() + "#" + a.number(), a));
        Map<String, List<Refund>> automaticRefunds = new HashMap<>();
        books.refunds().stream().filter(r -> !r.countsAgainstPayment())
                .forEach(r -> automaticRefunds.computeIfAbsent(r.paymentId() + "#" + r.attempt(),
                        k -> new ArrayList<>()).add(r));

        Map<String, List<Charge>> byAttempt = new LinkedHashMap<>();
        for (Charge charge : charges) {
            if (charge.status() == ChargeStatus.DECLINED) {
                continue;
            }
            if (charge.paymentId() == null || charge.attempt() == null
                    || !attempts.containsKey(charge.attemptKey())) {
                violations.add(violation(Kind.CHARGE_WITHOUT_ATTEMPT, charge,
                        "names no attempt the service holds"));
                continue;
            }
            byAttempt.computeIfAbsent(charge.attemptKey(), k -> new ArrayList<>()).add(charge);
            Attempt attempt = attempts.get(charge.attemptKey());
            if (!attempt.connector().equals(charge.connector())) {
                violations.add(violation(Kind.CHARGE_AT_ANOTHER_CONNECTOR, charge,
                        "the attempt was sent to " + attempt.connector()));
            }
        }
        byAttempt.forEach((key, held) -> {
            if (held.size() > 1) {
                violations.add(violation(Kind.TWO_CHARGES_FOR_ONE_ATTEMPT, held.get(0), held.size()
                        + " charges for one attempt: " + held.stream().map(c -> c.connector() + ":"
                        + c.reference() + " " + c.status()).toList()));
            }
        });

        for (Charge charge : charges) {
            if (!attempts.containsKey(charge.attemptKey())) {
                continue; // reported above: a charge that names no attempt of the service
            }
            if (charge.status() == ChargeStatus.RELEASED && charge.liveRefunds() > 0) {
                violations.add(violation(Kind.ORPHAN_NOT_GIVEN_BACK_ONCE, charge, "released and also refunded "
                        + charge.givenBack() + " (" + charge.liveRefunds() + " refunds): given back twice"));
            }
            if (!charge.holdsMoney()) {
                continue;
            }
            Payment payment = payments.get(charge.paymentId());
            if (backs(charge, payment, attempts.get(charge.attemptKey()))) {
                continue;
            }
            String whose = payment == null ? "no payment of the service" : "payment " + payment.status()
                    + " on attempt " + payment.attempt() + " at " + payment.connector();
            // An open hold that backs nothing is given back by the orphan refund of its whole authorisation (Adyen's
            // reversal cancels it); a captured one by the orphan refund of what was captured.
            long owed = charge.status() == ChargeStatus.HELD ? charge.amount() : charge.taken();
            if (charge.liveRefunds() != 1 || charge.givenBack() != owed) {
                violations.add(violation(Kind.ORPHAN_NOT_GIVEN_BACK_ONCE, charge, "backs nothing (" + whose + "); the connector"
                        + " holds " + charge.liveRefunds() + " refunds of it for " + charge.givenBack() + " of "
                        + owed + (charge.hold() == null ? "" : charge.status() == ChargeStatus.HELD
                        ? " (an open hold)" : " captured")));
            }
            List<Refund> rows = automaticRefunds.getOrDefault(charge.attemptKey(), List.of());
            List<Refund> live = rows.stream().filter(r -> !r.status().equals("FAILED")).toList();
            boolean done = live.size() == 1 && (!settled || live.get(0).status().equals("SUCCEEDED"));
            if (!done) {
                violations.add(violation(Kind.ORPHAN_NOT_GIVEN_BACK_ONCE, charge, "backs nothing (" + whose + "); the service"
                        + " holds " + live.size() + " orphaned_charge refunds of the attempt that are not FAILED "
                        + rows.stream().map(r -> r.id() + " " + r.status()).toList()));
            }
        }

        automaticRefundRows(books, payments, attempts, automaticRefunds, settled, violations);
        paymentRefunds(books, payments, violations);
        connectorRefunds(charges, books, violations);
        backingCharges(books, byAttempt, settled, violations);
        holds(charges, books, payments, attempts, violations);
        return violations;
    }

    /**
     * The charges that took money and back no payment (orphaned: the ones that must be given back exactly once),
     * leaving out those that name no attempt of the service.
     */
    public static List<Charge> unbacked(Collection<Charge> charges, Books books) {
        Map<String, Payment> payments = new HashMap<>();
        books.payments().forEach(p -> payments.put(p.id(), p));
        Map<String, Attempt> attempts = new HashMap<>();
        books.attempts().forEach(a -> attempts.put(a.paymentId() + "#" + a.number(), a));
        return charges.stream().filter(Charge::holdsMoney)
                .filter(c -> attempts.containsKey(c.attemptKey()))
                .filter(c -> !backs(c, payments.get(c.paymentId()), attempts.get(c.attemptKey())))
                .toList();
    }

    /**
     * Whether the charge is its payment's own, on that attempt at that connector: money taken backs a COMPLETED
     * payment (or a CAPTURING one whose capture the service has not heard of yet); an open hold backs an AUTHORIZED or
     * CAPTURING one.
     */
    private static boolean backs(Charge charge, @Nullable Payment payment, @Nullable Attempt attempt) {
        if (payment == null || charge.attempt() == null || charge.attempt() != payment.attempt()
                || !charge.connector().equals(payment.connector())
                || (attempt != null && attempt.reference() != null && !attempt.reference().equals(charge.reference()))) {
            return false;
        }
        return switch (charge.status()) {
            case TOOK_MONEY -> payment.status().equals("COMPLETED")
                    || (charge.hold() != null && payment.status().equals("CAPTURING"));
            case HELD -> payment.holding();
            default -> false;
        };
    }

    /** Captured within authorised, one capture key per number, one capture and one release per charge, one winner. */
    private static void holds(Collection<Charge> charges, Books books, Map<String, Payment> payments,
                              Map<String, Attempt> attempts, List<Violation> violations) {
        for (Payment payment : books.payments()) {
            if (payment.amountCaptured() > payment.amount()) {
                violations.add(new Violation(Kind.CAPTURED_ABOVE_AUTHORISED, payment.id(), payment.attempt(),
                        payment.connector(), null, "the payment row says " + payment.amountCaptured()
                        + " captured of " + payment.amount() + " authorised"));
            }
        }
        for (Charge charge : charges) {
            Hold hold = charge.hold();
            if (hold == null) {
                continue;
            }
            if (hold.captured() > charge.amount()) {
                violations.add(violation(Kind.CAPTURED_ABOVE_AUTHORISED, charge, "the connector captured "
                        + hold.captured() + " of " + charge.amount() + " authorised"));
            }
            Map<Integer, Set<String>> keys = new java.util.TreeMap<>();
            hold.captures().forEach(c -> keys.computeIfAbsent(c.number(), n -> new java.util.TreeSet<>()).add(c.key()));
            keys.forEach((number, distinct) -> {
                if (distinct.size() > 1) {
                    violations.add(violation(Kind.CAPTURED_TWICE, charge, "capture " + number + " sent under "
                            + distinct.size() + " keys " + distinct));
                }
            });
            for (CaptureAtConnector capture : hold.captures()) {
                java.util.regex.Matcher named = CAPTURE_NUMBER.matcher(capture.key());
                if (named.find() && Integer.parseInt(named.group(1)) != capture.number()) {
                    violations.add(violation(Kind.CAPTURED_TWICE, charge, "capture " + capture.number()
                            + " sent under " + capture.key() + ", the key of capture " + named.group(1)));
                }
            }
            long took = hold.captures().stream().filter(CaptureAtConnector::tookMoney).count();
            if (took > 1) {
                violations.add(violation(Kind.CAPTURED_TWICE, charge, took + " captures took money: "
                        + hold.captures().stream().filter(CaptureAtConnector::tookMoney)
                        .map(c -> c.key() + " " + c.amount()).toList()));
            }
            if (hold.releases() > 1) {
                violations.add(violation(Kind.RELEASED_TWICE, charge, "released " + hold.releases() + " times"));
            }
            if (hold.releases() > 0 && took > 0) {
                violations.add(violation(Kind.RELEASED_TWICE, charge, "released and captured ("
                        + hold.captured() + "): a capture racing a cancel had two winners"));
            }
            Payment payment = payments.get(charge.paymentId());
            if (charge.status() == ChargeStatus.TOOK_MONEY && payment != null && payment.status().equals("COMPLETED")
                    && backs(charge, payment, attempts.get(charge.attemptKey()))
                    && payment.amountCaptured() != hold.captured()) {
                violations.add(violation(Kind.CAPTURE_DISAGREES, charge, "the service says "
                        + payment.amountCaptured() + " captured, the connector captured " + hold.captured()));
            }
        }
    }

    private static void automaticRefundRows(Books books, Map<String, Payment> payments, Map<String, Attempt> attempts,
                                            Map<String, List<Refund>> automatic, boolean settled,
                                            List<Violation> violations) {
        automatic.forEach((key, rows) -> {
            Refund first = rows.get(0);
            Attempt attempt = attempts.get(key);
            // A failed automatic refund is followed by a new one (docs/reliability.md): only one may be live.
            long live = rows.stream().filter(r -> !r.status().equals("FAILED")).count();
            if (live > 1) {
                violations.add(new Violation(Kind.ORPHAN_REFUND_ROWS, first.paymentId(), first.attempt(),
                        first.connector(), first.chargeReference(), live + " live orphaned_charge refunds"));
            }
            if (attempt == null || !attempt.orphaned()) {
                violations.add(new Violation(Kind.ORPHAN_REFUND_ROWS, first.paymentId(), first.attempt(),
                        first.connector(), first.chargeReference(), "orphaned_charge refund " + first.id()
                        + " for an attempt not marked orphaned"));
            }
            if (settled && rows.stream().noneMatch(r -> r.status().equals("SUCCEEDED"))) {
                violations.add(new Violation(Kind.ORPHAN_REFUND_ROWS, first.paymentId(), first.attempt(),
                        first.connector(), first.chargeReference(), "orphaned_charge refund " + first.id() + " is "
                        + first.status() + " after the world settled"));
            }
            Payment payment = payments.get(first.paymentId());
            long sum = rows.stream().filter(r -> !r.status().equals("FAILED")).mapToLong(Refund::amount).sum();
            if (payment == null || sum > payment.amount()) {
                violations.add(new Violation(Kind.OVER_REFUNDED, first.paymentId(), first.attempt(),
                        first.connector(), first.chargeReference(), "orphaned_charge refunds sum " + sum
                        + " > the payment's amount " + (payment == null ? "(no payment)" : payment.amount())));
            }
        });
        for (Attempt attempt : books.attempts()) {
            if (attempt.orphaned() && !automatic.containsKey(attempt.paymentId() + "#" + attempt.number())) {
                violations.add(new Violation(Kind.ORPHAN_REFUND_ROWS, attempt.paymentId(), attempt.number(),
                        attempt.connector(), attempt.reference(), "marked orphaned without an orphaned_charge refund"));
            }
        }
    }

    private static void paymentRefunds(Books books, Map<String, Payment> payments, List<Violation> violations) {
        Map<String, Long> reserved = new HashMap<>();
        Map<String, Long> refunded = new HashMap<>();
        for (Refund refund : books.refunds()) {
            if (!refund.countsAgainstPayment()) {
                continue;
            }
            if (!refund.status().equals("FAILED")) {
                reserved.merge(refund.paymentId(), refund.amount(), Long::sum);
            }
            if (refund.status().equals("SUCCEEDED")) {
                refunded.merge(refund.paymentId(), refund.amount(), Long::sum);
            }
        }
        for (Payment payment : payments.values()) {
            long r = reserved.getOrDefault(payment.id(), 0L);
            long s = refunded.getOrDefault(payment.id(), 0L);
            if (r > payment.amount()) {
                violations.add(new Violation(Kind.OVER_REFUNDED, payment.id(), payment.attempt(),
                        payment.connector(), null, "refunds pending or succeeded sum " + r + " > amount "
                        + payment.amount()));
            } else if (r != payment.amountReserved() || s != payment.amountRefunded()) {
                violations.add(new Violation(Kind.PAYMENT_ROW_DISAGREES, payment.id(), payment.attempt(),
                        payment.connector(), null, "refund rows sum " + r + " reserved / " + s
                        + " succeeded, the payment row says " + payment.amountReserved() + " / "
                        + payment.amountRefunded()));
            } else if (r > 0 && !payment.status().equals("COMPLETED") && !payment.status().equals("AUTHORIZED")) {
                violations.add(new Violation(Kind.PAYMENT_ROW_DISAGREES, payment.id(), payment.attempt(),
                        payment.connector(), null, "refunded while " + payment.status()));
            } else if (r > payment.amountCaptured()) {
                violations.add(new Violation(Kind.OVER_REFUNDED, payment.id(), payment.attempt(),
                        payment.connector(), null, "refunds pending or succeeded sum " + r + " > captured "
                        + payment.amountCaptured()));
            }
        }
    }

    /**
     * At the connector: a charge's refunds never exceed it; and what the service counts as SUCCEEDED refunds of a
     * payment's charge is no more than the connector gave back of it (a reversal the service missed).
     */
    private static void connectorRefunds(Collection<Charge> charges, Books books, List<Violation> violations) {
        Map<String, Long> succeededByCharge = new HashMap<>();
        Map<String, Refund> anyByCharge = new HashMap<>();
        for (Refund refund : books.refunds()) {
            if (refund.countsAgainstPayment() && refund.status().equals("SUCCEEDED")
                    && refund.chargeReference() != null && refund.connector() != null) {
                String key = refund.connector() + ":" + refund.chargeReference();
                succeededByCharge.merge(key, refund.amount(), Long::sum);
                anyByCharge.putIfAbsent(key, refund);
            }
        }
        for (Charge charge : charges) {
            long refundable = charge.hold() == null || charge.status() == ChargeStatus.HELD ? charge.amount()
                    : charge.taken();
            if (charge.givenBack() > refundable) {
                violations.add(violation(Kind.OVER_REFUNDED, charge, "the connector's refunds of it sum "
                        + charge.givenBack() + " > " + (refundable == charge.amount() ? "its amount " : "captured ")
                        + refundable));
            }
            long counted = succeededByCharge.getOrDefault(charge.connector() + ":" + charge.reference(), 0L);
            if (counted > charge.givenBack()) {
                violations.add(violation(Kind.REFUND_NOT_AT_CONNECTOR, charge, "the service counts " + counted
                        + " refunded (SUCCEEDED), the connector gave back " + charge.givenBack()));
            }
        }
    }

    private static void backingCharges(Books books, Map<String, List<Charge>> byAttempt, boolean settled,
                                       List<Violation> violations) {
        for (Payment payment : books.payments()) {
            if (!payment.status().equals("COMPLETED") && !payment.holding()) {
                continue;
            }
            List<Charge> held = byAttempt.getOrDefault(payment.id() + "#" + payment.attempt(), List.of()).stream()
                    .filter(c -> c.connector().equals(payment.connector()))
                    .filter(c -> payment.status().equals("COMPLETED") ? c.status() == ChargeStatus.TOOK_MONEY
                            : c.status() == ChargeStatus.HELD
                            || (payment.status().equals("CAPTURING") && c.status() == ChargeStatus.TOOK_MONEY))
                    .toList();
            boolean underWay = !settled && byAttempt.getOrDefault(payment.id() + "#" + payment.attempt(), List.of())
                    .stream().anyMatch(c -> c.connector().equals(payment.connector()));
            if (held.isEmpty() && !underWay) {
                violations.add(new Violation(Kind.PAYMENT_WITHOUT_ITS_CHARGE, payment.id(), payment.attempt(),
                        payment.connector(), null, payment.status() + " but its connector holds no charge that"
                        + (payment.status().equals("COMPLETED") ? " took money" : " holds the money")
                        + " for the attempt"));
            }
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------------------------

    private static Violation violation(Kind kind, Charge charge, String why) {
        return new Violation(kind, charge.paymentId(), charge.attempt(), charge.connector(), charge.reference(), why);
    }

    /** A connector's refund status that gives nothing back: failed, declined, refused, cancelled, reversed. */
    public static boolean gaveNothingBack(@Nullable String status) {
        if (status == null) {
            return false;
        }
        String s = status.toLowerCase(Locale.ROOT);
        return s.contains("fail") || s.contains("declin") || s.contains("refus") || s.startsWith("cancel")
                || s.contains("revers") || s.equals("voided");
    }

    /** The attempt an attempt's idempotency key names ({@code <payment id>}: 1; {@code …-attempt-<n>}: n). */
    public static @Nullable Integer attemptOfKey(@Nullable String paymentId, @Nullable String key) {
        if (paymentId == null || key == null) {
            return null;
        }
        if (key.equals(paymentId)) {
            return 1;
        }
        String prefix = paymentId + "-attempt-";
        return key.startsWith(prefix) ? number(key.substring(prefix.length())) : null;
    }

    private static @Nullable Integer number(@Nullable Object value) {
        if (value == null) {
            return null;
        }
        try {
            return Integer.valueOf(String.valueOf(value));
        } catch (NumberFormatException notANumber) {
            return null;
        }
    }

    private static long received(Map<String, Object> intent) {
        Object received = intent.get("amount_received");
        return received instanceof Number n ? n.longValue() : ((Number) intent.get("amount")).longValue();
    }

    private static @Nullable String upper(@Nullable Object currency) {
        return currency == null ? null : String.valueOf(currency).toUpperCase(Locale.ROOT);
    }

    private static long minorUnits(Object decimal, String currency) {
        int digits = java.util.Currency.getInstance(currency).getDefaultFractionDigits();
        return new BigDecimal(String.valueOf(decimal)).movePointRight(Math.max(digits, 0)).longValueExact();
    }

    private interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private static <T> List<T> rows(Connection connection, String sql, RowMapper<T> mapper) throws SQLException {
        try (var statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            List<T> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(mapper.map(rs));
            }
            return rows;
        }
    }
}
