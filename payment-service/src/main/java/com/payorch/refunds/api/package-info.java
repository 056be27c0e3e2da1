/**
 * The refunds HTTP API: controller and the refund resource.
 */
package com.payorch.refunds.api;
