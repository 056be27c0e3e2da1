/**
 * Background jobs, each on its own loop and thread, woken early by PostgreSQL notifications of new work
 * ({@link com.payorch.jobs.WorkNotifications}), and batched retention deletes.
 */
package com.payorch.jobs;
