-- Signed merchant webhooks (docs/rules/webhooks.md, ADRs 0231–0233). A merchant's endpoints with the events
-- they take and the secret that signs them (kept readable: an HMAC needs the secret itself); after a rotation
-- the previous secret signs too until `previous_secret_until`. Each event a merchant will hear of is stored
-- once with the exact body every delivery of it sends, keyed by its event id, and each endpoint that takes
-- it gets one delivery row (unique per endpoint and event, so a repeated batch of the outbox adds none).
-- Deliveries of one payment to one endpoint go out in id order (`order_key` is the payment's request id).
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"merchant_id" integer NOT NULL REFERENCES "merchants" ("id"),
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhook_endpoints_merchant_idx" ON "webhook_endpoints" ("merchant_id", "created_at");
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY,
	"merchant_id" integer NOT NULL REFERENCES "merchants" ("id"),
	"type" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY,
	"endpoint_id" uuid NOT NULL REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE,
	"event_id" text NOT NULL REFERENCES "webhook_events" ("id"),
	"merchant_id" integer NOT NULL REFERENCES "merchants" ("id"),
	"order_key" text,
	"status" text NOT NULL DEFAULT 'PENDING' CHECK ("status" IN ('PENDING', 'SUCCEEDED', 'FAILED')),
	"attempts" integer NOT NULL DEFAULT 0,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"give_up_at" timestamp with time zone NOT NULL,
	"leased_until" timestamp with time zone,
	"response_code" integer,
	"duration_ms" integer,
	"error" text,
	"last_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webhook_deliveries_endpoint_event_key" UNIQUE ("endpoint_id", "event_id")
);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("next_attempt_at", "id") WHERE "status" = 'PENDING';
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_order_idx" ON "webhook_deliveries" ("endpoint_id", "order_key", "id") WHERE "status" = 'PENDING';
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_merchant_idx" ON "webhook_deliveries" ("merchant_id", "id");
