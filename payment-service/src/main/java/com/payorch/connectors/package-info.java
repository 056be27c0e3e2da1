/**
 * Which connectors the service uses: the composition root of the gateway port.
 */
package com.payorch.connectors;
