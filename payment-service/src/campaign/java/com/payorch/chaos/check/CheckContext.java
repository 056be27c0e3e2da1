package com.payorch.chaos.check;

import com.payorch.chaos.CampaignFacts;
import com.payorch.chaos.check.Operations.Operation;
import com.payorch.chaos.history.HistoryEntry;
import com.payorch.testsupport.MoneyInvariant;
import java.util.List;

/**
 * What every invariant looks at: the facts, the history (raw and paired into operations) and the database, read once;
 * and the money invariant's violations over them ({@link MoneyInvariant}, judged once, shown by the invariants that
 * group them).
 */
record CheckContext(CampaignFacts facts, List<HistoryEntry> history, List<Operation> operations, Snapshot db,
                    Charges charges, List<MoneyInvariant.Violation> money) {

    CheckContext(CampaignFacts facts, List<HistoryEntry> history, List<Operation> operations, Snapshot db,
                 Charges charges) {
        this(facts, history, operations, db, charges,
                MoneyInvariant.check(charges.forMoneyInvariant(), db.books(), true));
    }
}
