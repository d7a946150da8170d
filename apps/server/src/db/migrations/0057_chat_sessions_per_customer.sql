-- A chat session's id is the client's (docs/rules/chat.md#C1: the client makes it and sends it on every turn),
-- so it is unique only within one customer: a session is found by its customer and its id together, and two customers
-- whose clients chose the same id each have a conversation of their own (docs/rules/chat.md#C1, ADR 0180).
-- The key leads with the customer, which is also how the per-customer cap reads a customer's sessions.
ALTER TABLE "chat_sessions" DROP CONSTRAINT "chat_sessions_pkey";
--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_customer_id_id_pk" PRIMARY KEY ("customer_id", "id");
