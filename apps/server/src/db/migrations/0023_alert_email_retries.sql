ALTER TABLE "alert_notifications" ADD COLUMN "email_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_notifications" ADD COLUMN "email_next_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_notifications" ADD COLUMN "email_last_error" text;