package com.payorch.console;

import java.util.Set;
import java.util.TreeSet;

/**
 * The merchants a console user may see: all of them ({@code *}) or a listed few. Every console query is narrowed
 * by it, so a payment outside it is simply not found (404), as with the API.
 */
public record MerchantScope(boolean all, Set<String> merchants) {

    public static final MerchantScope ALL = new MerchantScope(true, Set.of());

    public MerchantScope {
        merchants = Set.copyOf(new TreeSet<>(merchants));
    }

    public static MerchantScope of(Set<String> merchants) {
        return new MerchantScope(false, merchants);
    }

    public boolean includes(String merchantId) {
        return all || merchants.contains(merchantId);
    }

    /**
     * The condition on a merchant column for SQL ({@code true} for all); binds {@code :scopeMerchants} when not all.
     */
    String condition(String column) {
        return all ? "true" : column + " = any(:scopeMerchants)";
    }

    String[] asArray() {
        return merchants.toArray(String[]::new);
    }

    /** For the page header: {@code all merchants} or the ids. */
    public String describe() {
        return all ? "all merchants" : merchants.isEmpty() ? "no merchant" : String.join(", ", new TreeSet<>(merchants));
    }
}
