package com.payorch.disputes.api;

import com.payorch.support.Refusal;

/** No such dispute for this merchant (another merchant's dispute is not found either). */
class DisputeNotFound extends Refusal {

    DisputeNotFound(String disputeId) {
        super("not_found", "No dispute " + disputeId + ".");
    }
}
