package com.payorch.payments;

/** A payment as a state change left it, with the transition that change added to its history. */
public record PaymentChange(Payment payment, PaymentTransition transition) {
}
