CREATE TABLE "tariffs" (
	"id" serial PRIMARY KEY NOT NULL,
	"location_id" integer NOT NULL,
	"effective_from" date NOT NULL,
	"currency" text NOT NULL,
	"energy_price" numeric(12, 6) NOT NULL,
	"windows" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"holidays" date[] DEFAULT '{}'::date[] NOT NULL,
	"standing_charge_per_day" numeric(12, 6) NOT NULL,
	"tax_percent" numeric(9, 6) NOT NULL,
	"feed_in_price" numeric(12, 6),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tariffs_currency_check" CHECK ("tariffs"."currency" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "billing_day" smallint;--> statement-breakpoint
ALTER TABLE "tariffs" ADD CONSTRAINT "tariffs_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tariffs_location_effective_key" ON "tariffs" USING btree ("location_id","effective_from");--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_billing_day_check" CHECK ("locations"."billing_day" between 1 and 28);