/**
 * The payments HTTP API: controller, request parsing and the payment resource.
 */
package com.payorch.payments.api;
