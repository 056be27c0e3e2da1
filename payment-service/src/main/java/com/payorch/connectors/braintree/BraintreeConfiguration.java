package com.payorch.connectors.braintree;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Braintree's gateway on its own threads ({@link BraintreeThreads}). */
@Configuration(proxyBeanMethods = false)
public class BraintreeConfiguration {

    @Bean(destroyMethod = "close")
    BraintreeThreads braintreeThreads(BraintreeSettings settings) {
        return BraintreeThreads.of(settings);
    }

    @Bean
    BraintreeGateway braintreeGateway(BraintreeSettings settings, BraintreeAccounts accounts,
                                      BraintreeThreads braintreeThreads) {
        return new BraintreeGateway(settings, accounts, braintreeThreads.scheduler());
    }
}
