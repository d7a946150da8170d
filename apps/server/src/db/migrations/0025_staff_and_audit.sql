-- The operator console (docs/rules/operations.md): staff apart from customers, their sessions and one-time
-- enrolment links, the append-only audit trail, and the controls operators hold over customers and merchants.
CREATE TABLE "staff" (
	"id" serial PRIMARY KEY,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL CHECK ("role" IN ('SUPPORT', 'RISK', 'MODERATOR', 'ADMIN')),
	"password_hash" text,
	"totp_secret" text NOT NULL,
	-- The TOTP time step last accepted: a code is good once (docs/rules/operations.md#O2).
	"totp_last_step" bigint NOT NULL DEFAULT 0,
	"enrolled_at" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX "staff_email_key" ON "staff" ("email");
--> statement-breakpoint
CREATE TABLE "staff_enrolments" (
	"token_hash" text PRIMARY KEY,
	"staff_id" integer NOT NULL REFERENCES "staff" ("id"),
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "staff_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"staff_id" integer NOT NULL REFERENCES "staff" ("id"),
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	-- Null until the second factor is passed: such a session opens nothing but the TOTP step.
	"totp_at" timestamp with time zone,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "staff_sessions_staff_idx" ON "staff_sessions" ("staff_id");
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY,
	"at" timestamp with time zone NOT NULL,
	"staff_id" integer REFERENCES "staff" ("id"),
	"staff_name" text NOT NULL,
	"role" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"reason" text NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" ("target_type", "target_id", "id");
--> statement-breakpoint
CREATE INDEX "audit_log_staff_idx" ON "audit_log" ("staff_id", "id");
--> statement-breakpoint
-- Append-only (docs/rules/operations.md#O6): the application's own database role cannot change or remove a row.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "audit_log_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_log"
	FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
	FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
-- An operator's suspension holds whatever the bills say; a lift lets an overdue customer pay again until
-- the overdue debt is settled (docs/rules/operations.md#O5).
ALTER TABLE "customers" ADD COLUMN "staff_suspended" boolean NOT NULL DEFAULT false;
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "overdue_lifted" boolean NOT NULL DEFAULT false;
--> statement-breakpoint
-- Tokens issued at or before this instant are refused (an operator ended every session).
ALTER TABLE "customers" ADD COLUMN "sessions_revoked_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "disabled_at" timestamp with time zone;
