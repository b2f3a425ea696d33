CREATE TABLE "connect_apps" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"contact" text NOT NULL,
	"client_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"redirect_uris" text[] NOT NULL,
	"data_kinds" text[] NOT NULL,
	"notification_uri" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"suspended_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	CONSTRAINT "connect_apps_client_id_unique" UNIQUE("client_id"),
	CONSTRAINT "connect_apps_status_check" CHECK ("connect_apps"."status" in ('active', 'suspended', 'removed'))
);
--> statement-breakpoint
CREATE TABLE "meter_access_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"meter_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"channel" text NOT NULL,
	"reader_name" text NOT NULL,
	"reader_user_id" integer,
	"reader_api_key_id" integer,
	"data" text[] NOT NULL,
	"range_from" timestamp with time zone,
	"range_to" timestamp with time zone,
	"what" text NOT NULL,
	CONSTRAINT "meter_access_log_channel_check" CHECK ("meter_access_log"."channel" in ('admin', 'api-key', 'webhook', 'export', 'app'))
);
--> statement-breakpoint
CREATE INDEX "meter_access_log_meter_idx" ON "meter_access_log" USING btree ("meter_id","at");--> statement-breakpoint
CREATE INDEX "meter_access_log_at_idx" ON "meter_access_log" USING btree ("at");