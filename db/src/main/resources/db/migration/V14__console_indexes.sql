-- The operations console (com.payorch.console): its payment list across merchants, newest first, and its
-- "needs attention" views read these without scanning whole tables.
create index payments_console_list on payments (created_at, id);
create index payment_attempts_orphaned on payment_attempts (orphaned_at) where orphaned_at is not null;
create index webhook_deliveries_failed on webhook_deliveries (at) where status = 'failed';
