package com.payorch.web;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.http.HttpStatus;

/** The stable, machine-readable `code` of every problem response, with its HTTP status and title. */
public enum ProblemCode {
    INVALID_REQUEST(HttpStatus.BAD_REQUEST, "Invalid request"),
    PAYLOAD_TOO_LARGE(HttpStatus.PAYLOAD_TOO_LARGE, "Payload too large"),
    URI_TOO_LONG(HttpStatus.URI_TOO_LONG, "Request line too long"),
    REQUEST_HEADER_TOO_LARGE(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "Request header fields too large"),
    REQUEST_TIMEOUT(HttpStatus.REQUEST_TIMEOUT, "Request timeout"),
    UNAUTHENTICATED(HttpStatus.UNAUTHORIZED, "Unauthenticated"),
    NOT_FOUND(HttpStatus.NOT_FOUND, "Not found"),
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed"),
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, "Not acceptable"),
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type"),
    IDEMPOTENCY_KEY_MISSING(HttpStatus.BAD_REQUEST, "Idempotency-Key header missing"),
    IDEMPOTENCY_KEY_INVALID(HttpStatus.BAD_REQUEST, "Idempotency-Key header invalid"),
    IDEMPOTENCY_KEY_REUSED(HttpStatus.UNPROCESSABLE_CONTENT, "Idempotency key reused with a different request"),
    IDEMPOTENCY_REQUEST_IN_PROGRESS(HttpStatus.CONFLICT, "A request with this idempotency key is in progress"),
    BOOKING_PAYMENT_IN_PROGRESS(HttpStatus.CONFLICT, "The booking already has a payment in progress"),
    BOOKING_ALREADY_PAID(HttpStatus.CONFLICT, "The booking is already paid"),
    INVALID_TRANSITION(HttpStatus.CONFLICT, "Invalid state transition"),
    PAYMENT_NOT_REFUNDABLE(HttpStatus.CONFLICT, "The payment is not refundable"),
    AMOUNT_EXCEEDS_REFUNDABLE(HttpStatus.CONFLICT, "The amount exceeds what is refundable"),
    BOOKING_CANCELLED(HttpStatus.CONFLICT, "The booking is cancelled"),
    CONCURRENT_MODIFICATION(HttpStatus.CONFLICT, "The resource was changed concurrently"),
    VERSION_MISMATCH(HttpStatus.PRECONDITION_FAILED, "Version mismatch"),
    WEBHOOK_SIGNATURE_INVALID(HttpStatus.UNAUTHORIZED, "Webhook signature invalid"),
    WEBHOOK_SIGNATURE_REJECTED(HttpStatus.BAD_REQUEST, "Webhook signature rejected"),
    WEBHOOK_INVALID(HttpStatus.BAD_REQUEST, "Webhook invalid"),
    RATE_LIMITED(HttpStatus.TOO_MANY_REQUESTS, "Too many requests"),
    GATEWAY_ERROR(HttpStatus.BAD_GATEWAY, "Payment gateway error"),
    SERVICE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "Service unavailable"),
    INTERNAL_ERROR(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error");

    private static final Map<String, ProblemCode> BY_CODE = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(ProblemCode::code, Function.identity()));

    private final HttpStatus status;
    private final String title;

    ProblemCode(HttpStatus status, String title) {
        this.status = status;
        this.title = title;
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    public String code() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The problem code whose {@link #code()} this is: how a domain refusal, which names only the string, is mapped. */
    public static Optional<ProblemCode> byCode(String code) {
        return Optional.ofNullable(BY_CODE.get(code));
    }

    /** A stable, absolute URI per code (RFC 9457 `type`); documented in the README. */
    public String type() {
        return "urn:payorch:problem:" + code();
    }
}
