/**
 * Background jobs, each on its own loop and thread, and batched retention deletes.
 */
package com.payorch.jobs;
