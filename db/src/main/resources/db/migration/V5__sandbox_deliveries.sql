-- The sandbox gateway's own webhook deliveries. Whether a charge owes webhooks is decided when it is made (by the
-- submitting instance's payments.gateway.sandbox.webhooks), so an instance with webhooks off that settles the charge
-- does not lose them. An instance delivering a charge's webhooks holds a lease on it: if the instance dies, the lease
-- runs out and another instance (or the same one, restarted) delivers them again, under the same webhook ids.
alter table sandbox_charges
    add column webhooks_due          boolean     not null default false,
    add column webhooks_leased_until timestamptz,
    add column webhooks_finished_at  timestamptz,
    add column webhooks_outcome      text check (webhooks_outcome in ('delivered', 'gave_up'));

create index sandbox_charges_to_settle on sandbox_charges (created_at) where status = 'processing';
create index sandbox_charges_webhooks_owed on sandbox_charges (updated_at)
    where webhooks_due and webhooks_finished_at is null;
