/**
 * The SQL of payments, used only by the payments module's own services: {@link
 * com.payorch.payments.internal.PaymentStore} (a payment and every change of it, with its transition, attempt and
 * event in one statement), {@link com.payorch.payments.internal.AttemptStore} (attempts' references and the failover
 * bookkeeping) and {@link com.payorch.payments.internal.PaymentListQueries} (payments with their history, one or a
 * page).
 */
package com.payorch.payments.internal;
