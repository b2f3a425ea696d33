CREATE TABLE "alert_episodes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rule_id" integer NOT NULL,
	"meter_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"cleared_at" timestamp with time zone,
	"detail" jsonb NOT NULL,
	"meter_number" text NOT NULL,
	"location_name" text NOT NULL,
	"time_zone" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"episode_id" bigint NOT NULL,
	"event" text NOT NULL,
	"in_app" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"email_to" text,
	"email_status" text,
	CONSTRAINT "alert_notifications_event_check" CHECK ("alert_notifications"."event" in ('fired', 'cleared'))
);
--> statement-breakpoint
CREATE TABLE "alert_preferences" (
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"in_app" boolean NOT NULL,
	"email" boolean NOT NULL,
	CONSTRAINT "alert_preferences_user_id_kind_pk" PRIMARY KEY("user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"location_id" integer NOT NULL,
	"meter_id" integer,
	"kind" text NOT NULL,
	"threshold" numeric(14, 6),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_rules_kind_check" CHECK ("alert_rules"."kind" in ('silent', 'dailyAbove', 'usualAbove', 'registerDecrease'))
);
--> statement-breakpoint
ALTER TABLE "alert_episodes" ADD CONSTRAINT "alert_episodes_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_episodes" ADD CONSTRAINT "alert_episodes_meter_id_meters_device_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("device_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notifications" ADD CONSTRAINT "alert_notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notifications" ADD CONSTRAINT "alert_notifications_episode_id_alert_episodes_id_fk" FOREIGN KEY ("episode_id") REFERENCES "public"."alert_episodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD CONSTRAINT "alert_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_meter_id_meters_device_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("device_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_episodes_open_key" ON "alert_episodes" USING btree ("rule_id","meter_id") WHERE "alert_episodes"."cleared_at" IS NULL;--> statement-breakpoint
CREATE INDEX "alert_notifications_user_idx" ON "alert_notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "alert_rules_location_idx" ON "alert_rules" USING btree ("location_id");