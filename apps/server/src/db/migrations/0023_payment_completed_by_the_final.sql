-- The final's TypeScript write records payment.completed itself, in its own transaction (ADR 0112): the
-- stand-in trigger of migration 0022 would record every payment twice.
DROP TRIGGER IF EXISTS purchases_payment_completed_event ON purchases;
--> statement-breakpoint
DROP FUNCTION IF EXISTS purchases_payment_completed_event();
