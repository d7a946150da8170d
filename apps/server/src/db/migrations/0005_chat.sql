CREATE TABLE "chat_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"price" integer NOT NULL,
	"image_key" text NOT NULL,
	"url" text NOT NULL,
	"category" text NOT NULL,
	"hobby" text NOT NULL,
	"moods" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_products_price_range" CHECK ("chat_products"."price" between 1 and 10000000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "chat_products_slug_key" ON "chat_products" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "chat_products_hobby_price_idx" ON "chat_products" USING btree ("hobby","price");--> statement-breakpoint
CREATE TABLE "chat_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"flow" text NOT NULL,
	"mood" text,
	"hobby" text,
	"shown_product_ids" integer[] DEFAULT '{}' NOT NULL,
	"options" jsonb NOT NULL,
	"pending" jsonb,
	"history" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_sessions_updated_at_idx" ON "chat_sessions" USING btree ("updated_at");
