/** `GET /v1/events/{id}/deliveries` and `POST /v1/events/{id}/redeliver`. */
package com.payorch.merchantwebhooks.api;
