package com.payorch.chaos.check;

import com.payorch.chaos.CampaignFacts;
import com.payorch.chaos.check.Operations.Operation;
import com.payorch.chaos.history.HistoryEntry;
import java.util.List;

/** What every invariant looks at: the facts, the history (raw and paired into operations) and the database, read once. */
record CheckContext(CampaignFacts facts, List<HistoryEntry> history, List<Operation> operations, Snapshot db,
                    Charges charges) {
}
