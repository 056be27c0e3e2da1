/**
 * The built-in sandbox connector: charges, settlement, signed webhook deliveries, its webhook adapter and the
 * read-only charge list for tests and demos.
 */
package com.payorch.connectors.sandbox;
