CREATE TABLE "short_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"short_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"parent_id" integer,
	"content" text NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "short_reactions" (
	"short_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "short_reactions_short_id_customer_id_pk" PRIMARY KEY("short_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "short_subscriptions" (
	"subscriber_id" integer NOT NULL,
	"target_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "short_subscriptions_subscriber_id_target_id_pk" PRIMARY KEY("subscriber_id","target_id"),
	CONSTRAINT "short_subscriptions_not_self" CHECK ("short_subscriptions"."subscriber_id" <> "short_subscriptions"."target_id")
);
--> statement-breakpoint
CREATE TABLE "short_views" (
	"id" serial PRIMARY KEY NOT NULL,
	"short_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"rewarded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "short_watch_daily" (
	"customer_id" integer NOT NULL,
	"kst_date" date NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "short_watch_daily_customer_id_kst_date_pk" PRIMARY KEY("customer_id","kst_date"),
	CONSTRAINT "short_watch_daily_cap" CHECK ("short_watch_daily"."total" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "shorts" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"video_key" text NOT NULL,
	"thumbnail_key" text,
	"source_key" text,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"width" integer DEFAULT 0 NOT NULL,
	"height" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'PROCESSING' NOT NULL,
	"failure_reason" text,
	"like_count" integer DEFAULT 0 NOT NULL,
	"dislike_count" integer DEFAULT 0 NOT NULL,
	"comment_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shorts_counts_nonnegative" CHECK ("shorts"."like_count" >= 0 and "shorts"."dislike_count" >= 0 and "shorts"."comment_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "short_comments" ADD CONSTRAINT "short_comments_short_id_shorts_id_fk" FOREIGN KEY ("short_id") REFERENCES "public"."shorts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_comments" ADD CONSTRAINT "short_comments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_reactions" ADD CONSTRAINT "short_reactions_short_id_shorts_id_fk" FOREIGN KEY ("short_id") REFERENCES "public"."shorts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_reactions" ADD CONSTRAINT "short_reactions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_subscriptions" ADD CONSTRAINT "short_subscriptions_subscriber_id_customers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_subscriptions" ADD CONSTRAINT "short_subscriptions_target_id_customers_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_views" ADD CONSTRAINT "short_views_short_id_shorts_id_fk" FOREIGN KEY ("short_id") REFERENCES "public"."shorts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_views" ADD CONSTRAINT "short_views_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_watch_daily" ADD CONSTRAINT "short_watch_daily_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shorts" ADD CONSTRAINT "shorts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "short_comments_short_idx" ON "short_comments" USING btree ("short_id","id");--> statement-breakpoint
CREATE INDEX "short_comments_customer_idx" ON "short_comments" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "short_reactions_customer_idx" ON "short_reactions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "short_subscriptions_target_idx" ON "short_subscriptions" USING btree ("target_id");--> statement-breakpoint
CREATE INDEX "short_views_customer_short_idx" ON "short_views" USING btree ("customer_id","short_id","started_at");--> statement-breakpoint
CREATE INDEX "shorts_status_created_idx" ON "shorts" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "shorts_customer_idx" ON "shorts" USING btree ("customer_id","created_at");