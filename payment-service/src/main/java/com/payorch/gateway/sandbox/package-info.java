/**
 * The built-in sandbox connector: charges, settlement, signed webhook deliveries, fault switches.
 */
package com.payorch.gateway.sandbox;
