CREATE TABLE "espi_notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"grant_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_result" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "espi_notifications_status_check" CHECK ("espi_notifications"."status" in ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "espi_notifications" ADD CONSTRAINT "espi_notifications_grant_id_connect_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."connect_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "espi_notifications_due_idx" ON "espi_notifications" USING btree ("next_attempt_at") WHERE "espi_notifications"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "espi_notifications_grant_idx" ON "espi_notifications" USING btree ("grant_id","created_at");