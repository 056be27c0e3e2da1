/**
 * Small shared pieces: ids, timestamps, the domain's base exception, SQL parts.
 */
package com.payorch.support;
