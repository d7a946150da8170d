-- Every status change of a payment request records its event in the same transaction (payment.completed,
-- .cancelled, .refunded, .expired), and the outbox relay announces the request on `payment_request_status`
-- from those events (live-status.ts). The trigger that notified from the changing transaction itself goes:
-- a notifying commit holds a cluster-wide lock through its disk flush, so every refund and cancel committed
-- one at a time, as finals did before migration 0045 (ADRs 0139, 0252).
DROP TRIGGER payment_requests_status_notify ON payment_requests;
--> statement-breakpoint
DROP FUNCTION payment_requests_status_notify();
