CREATE TABLE "carbon_points" (
	"series_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"milligrams" integer NOT NULL,
	CONSTRAINT "carbon_points_series_id_starts_at_pk" PRIMARY KEY("series_id","starts_at"),
	CONSTRAINT "carbon_points_milligrams_check" CHECK ("carbon_points"."milligrams" >= 0)
);
--> statement-breakpoint
CREATE TABLE "carbon_series" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"interval_minutes" smallint NOT NULL,
	"time_zone" text NOT NULL,
	"region" text NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "carbon_series_name_unique" UNIQUE("name"),
	CONSTRAINT "carbon_series_interval_check" CHECK ("carbon_series"."interval_minutes" in (5, 15, 30, 60))
);
--> statement-breakpoint
CREATE TABLE "location_carbon" (
	"location_id" integer PRIMARY KEY NOT NULL,
	"series_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_points" (
	"series_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"value_micro" bigint NOT NULL,
	CONSTRAINT "price_points_series_id_starts_at_pk" PRIMARY KEY("series_id","starts_at")
);
--> statement-breakpoint
CREATE TABLE "price_series" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"interval_minutes" smallint NOT NULL,
	"unit" text NOT NULL,
	"currency" text NOT NULL,
	"time_zone" text NOT NULL,
	"zone" text NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_series_name_unique" UNIQUE("name"),
	CONSTRAINT "price_series_interval_check" CHECK ("price_series"."interval_minutes" in (5, 15, 30, 60)),
	CONSTRAINT "price_series_unit_check" CHECK ("price_series"."unit" in ('kWh', 'MWh')),
	CONSTRAINT "price_series_currency_check" CHECK ("price_series"."currency" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
ALTER TABLE "alert_rules" DROP CONSTRAINT "alert_rules_kind_check";--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "import_series_id" integer;--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "import_margin" numeric(12, 6);--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "import_tax_percent" numeric(9, 6);--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "export_series_id" integer;--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "export_margin" numeric(12, 6);--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "export_tax_percent" numeric(9, 6);--> statement-breakpoint
ALTER TABLE "carbon_points" ADD CONSTRAINT "carbon_points_series_id_carbon_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."carbon_series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_carbon" ADD CONSTRAINT "location_carbon_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_carbon" ADD CONSTRAINT "location_carbon_series_id_carbon_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."carbon_series"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_points" ADD CONSTRAINT "price_points_series_id_price_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."price_series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tariffs" ADD CONSTRAINT "tariffs_import_series_id_price_series_id_fk" FOREIGN KEY ("import_series_id") REFERENCES "public"."price_series"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tariffs" ADD CONSTRAINT "tariffs_export_series_id_price_series_id_fk" FOREIGN KEY ("export_series_id") REFERENCES "public"."price_series"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_kind_check" CHECK ("alert_rules"."kind" in ('silent', 'dailyAbove', 'usualAbove', 'registerDecrease', 'billAbove', 'priceAbove'));