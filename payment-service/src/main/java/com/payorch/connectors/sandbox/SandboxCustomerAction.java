package com.payorch.connectors.sandbox;

import com.payorch.support.Timestamps;
import java.time.Clock;
import java.util.Optional;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The customer's side of the sandbox's 3-D Secure: the decision taken on its page settles a charge waiting in
 * `requires_action`. Approving settles it as the settlement job settles any charge (succeeded, or authorised for a
 * manual-capture charge), except that a `pm_card_3ds_declined` card fails authentication whatever the customer
 * does; declining fails it with `authentication_failed`. Either way its webhooks become due as for any settled
 * charge. One statement uses the page token and settles the charge: a token used twice, or a charge no longer
 * waiting (settled, cancelled), changes nothing, so parallel posts settle the charge once.
 */
@Component
public class SandboxCustomerAction {

    static final String APPROVING_TOKEN = "pm_card_3ds";
    static final String DECLINED_TOKEN = "pm_card_3ds_declined";
    static final String AUTHENTICATION_REQUIRED = "authentication_required";
    static final String AUTHENTICATION_FAILED = "authentication_failed";

    public enum Decision { APPROVE, DECLINE }

    private final DatabaseClient db;
    private final Clock clock;

    public SandboxCustomerAction(DatabaseClient db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    /** Whether a charge made with this token waits for its customer to authenticate. */
    static boolean asksForAuthentication(String paymentMethod) {
        return APPROVING_TOKEN.equals(paymentMethod) || DECLINED_TOKEN.equals(paymentMethod);
    }

    /**
     * Uses the token's nonce and settles the waiting charge as decided, in one statement. Emits where the customer
     * goes back to when this call settled the charge; empty when the token was used already or the charge no longer
     * waits (nothing changed).
     */
    public Mono<String> decide(String chargeId, String nonce, Decision decision) {
        // The token is recorded as used only by the statement that settles the charge: a charge no longer waiting
        // (or a token used already) changes nothing, not even the token table.
        return db.sql("""
                        with settled as (
                            update sandbox_charges
                            set status = case when :approve and payment_method <> :declinedToken
                                              then case when capture_method = 'manual' then 'authorized'
                                                        else 'succeeded' end
                                              else 'failed' end,
                                failure_reason = case when :approve and payment_method <> :declinedToken then null
                                                      else :failed end,
                                updated_at = :now, webhooks_finished_at = null, webhooks_leased_until = null
                            where id = :charge and status = 'requires_action'
                              and not exists (select 1 from sandbox_page_tokens where nonce = :nonce)
                            returning return_url),
                        used as (
                            insert into sandbox_page_tokens (nonce, charge_id, used_at)
                            select :nonce, :charge, :now from settled
                            on conflict (nonce) do nothing)
                        select return_url from settled
                        """)
                .bind("nonce", nonce)
                .bind("charge", chargeId)
                .bind("now", Timestamps.now(clock))
                .bind("approve", decision == Decision.APPROVE)
                .bind("declinedToken", DECLINED_TOKEN)
                .bind("failed", AUTHENTICATION_FAILED)
                .map(row -> Optional.ofNullable(row.get("return_url", String.class)))
                .one()
                .flatMap(Mono::justOrEmpty);
    }
}
