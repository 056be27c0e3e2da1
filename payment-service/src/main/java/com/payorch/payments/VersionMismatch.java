package com.payorch.payments;

import com.payorch.support.Refusal;

/** The client's precondition (`If-Match`) names another version than the payment's current one. */
public class VersionMismatch extends Refusal {

    public VersionMismatch(String detail) {
        super("version_mismatch", detail);
    }
}
