package com.payorch.chaos.check;

import com.payorch.chaos.CampaignFacts;
import java.util.List;
import java.util.Optional;

/**
 * The campaign's facts copied once, before the checker sends any replay: every invariant judges the same outside
 * world, whatever a replay might still cause.
 */
record FrozenFacts(Database database, List<String> instanceBaseUrls, List<PspCharge> pspCharges,
                   List<ReceivedMail> mails, List<ReceivedDelivery> merchantDeliveries,
                   Optional<List<StreamRecord>> kafkaRecords, List<PspDispute> pspDisputes)
        implements CampaignFacts {

    FrozenFacts(Database database, List<String> instanceBaseUrls, List<PspCharge> pspCharges,
                List<ReceivedMail> mails, List<ReceivedDelivery> merchantDeliveries,
                Optional<List<StreamRecord>> kafkaRecords) {
        this(database, instanceBaseUrls, pspCharges, mails, merchantDeliveries, kafkaRecords, List.of());
    }

    static FrozenFacts of(CampaignFacts facts) {
        return new FrozenFacts(facts.database(), List.copyOf(facts.instanceBaseUrls()),
                List.copyOf(facts.pspCharges()), List.copyOf(facts.mails()),
                List.copyOf(facts.merchantDeliveries()), facts.kafkaRecords().map(List::copyOf),
                List.copyOf(facts.pspDisputes()));
    }
}
