-- The daily prune also removes webhook events no delivery refers to any more (an endpoint deleted takes its
-- deliveries with it, and left their events behind for good; docs/rules/webhooks.md#W9). It reads the oldest
-- events first, a range of this index, instead of the whole table every day.
CREATE INDEX webhook_events_created_idx ON webhook_events (created_at, id);
