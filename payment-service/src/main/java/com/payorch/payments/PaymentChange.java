package com.payorch.payments;

/** A payment as a state change left it, with the transition that change added and its current attempt after it. */
public record PaymentChange(Payment payment, PaymentTransition transition, Attempt attempt) {
}
