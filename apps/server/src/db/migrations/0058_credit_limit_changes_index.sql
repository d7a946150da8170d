-- The /payment card tells of the latest change of a customer's monthly limit by risk
-- (docs/rules/bills-and-grades.md#B3, ADR 0181): it reads that customer's newest `credit_limit.changed` event.
-- Most of a customer's events are point postings (a keen viewer's watch claims); this index holds only the limit
-- changes, so the read is one index probe whatever else the customer did.
CREATE INDEX IF NOT EXISTS domain_events_credit_limit_changed_idx ON domain_events (customer_id, id)
	WHERE type = 'credit_limit.changed';
