-- The merchant portal (ADR 0234): a shop's own people sign in with a password and a TOTP code, like operators,
-- but into tables of their own, each user bound to one merchant. An ADMIN creates a user in the console, which
-- answers a one-time enrolment link (stored as its hash, expiring); sessions are rows that can be ended.
CREATE TABLE merchant_users (
	id serial PRIMARY KEY,
	merchant_id integer NOT NULL REFERENCES merchants(id),
	email text NOT NULL,
	name text NOT NULL,
	password_hash text,
	totp_secret text NOT NULL,
	totp_last_step bigint NOT NULL DEFAULT 0,
	enrolled_at timestamp with time zone,
	disabled_at timestamp with time zone,
	created_at timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX merchant_users_email_key ON merchant_users (email);
--> statement-breakpoint
CREATE INDEX merchant_users_merchant_idx ON merchant_users (merchant_id);
--> statement-breakpoint
CREATE TABLE merchant_user_enrolments (
	token_hash text PRIMARY KEY,
	merchant_user_id integer NOT NULL REFERENCES merchant_users(id),
	expires_at timestamp with time zone NOT NULL,
	used_at timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE merchant_user_sessions (
	id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	merchant_user_id integer NOT NULL REFERENCES merchant_users(id),
	created_at timestamp with time zone NOT NULL,
	last_seen_at timestamp with time zone NOT NULL,
	totp_at timestamp with time zone,
	ended_at timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX merchant_user_sessions_user_idx ON merchant_user_sessions (merchant_user_id);
--> statement-breakpoint
-- Keys the portal manages (ADR 0235): a revoked key stays listed but opens nothing; the hint is the key's last
-- four characters, so a shop can tell its keys apart without the key itself being kept.
ALTER TABLE merchant_api_keys ADD COLUMN revoked_at timestamp with time zone, ADD COLUMN hint text;
--> statement-breakpoint
-- What a merchant user did (a refund and its reason, a key created, rotated or revoked): the runtime role may
-- only insert and read it.
CREATE TABLE merchant_portal_actions (
	id bigserial PRIMARY KEY,
	merchant_id integer NOT NULL REFERENCES merchants(id),
	merchant_user_id integer NOT NULL REFERENCES merchant_users(id),
	at timestamp with time zone NOT NULL,
	action text NOT NULL,
	target_id text NOT NULL,
	reason text
);
--> statement-breakpoint
CREATE INDEX merchant_portal_actions_merchant_idx ON merchant_portal_actions (merchant_id, id);
--> statement-breakpoint
-- The portal's payments list pages a merchant's requests newest first.
CREATE INDEX payment_requests_merchant_created_idx ON payment_requests (merchant_id, created_at DESC, id DESC);
