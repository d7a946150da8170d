-- The console's webhook health reads, per endpoint, its latest attempt and the last 24 hours' attempts
-- (docs/rules/webhooks.md#W10). Both are a range of one endpoint's deliveries by when they were last tried, so
-- one index answers them without reading the endpoint's whole delivery log.
CREATE INDEX webhook_deliveries_endpoint_attempt_idx ON webhook_deliveries (endpoint_id, last_attempt_at);
