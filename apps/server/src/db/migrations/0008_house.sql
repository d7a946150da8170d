-- Status columns accept exactly the contract's enums (PAYMENT_REQUEST_STATUSES, PURCHASE_STATUSES,
-- processingStatus in packages/contract); a typo in code now fails at the database, not in a report.
ALTER TABLE "payment_requests" ADD CONSTRAINT "payment_requests_status_check" CHECK ("status" IN ('ACTIVE', 'PAID', 'EXPIRED', 'CANCELLED', 'REFUNDED'));--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_status_check" CHECK ("status" IN ('UNPAID', 'PAID', 'REFUNDED'));--> statement-breakpoint
ALTER TABLE "shorts" ADD CONSTRAINT "shorts_status_check" CHECK ("status" IN ('PROCESSING', 'READY', 'FAILED'));
