CREATE TABLE "reading_chunks" (
	"meter_id" integer NOT NULL,
	"month_start" timestamp with time zone NOT NULL,
	"readings" integer NOT NULL,
	"t" "bytea" NOT NULL,
	"v" "bytea" NOT NULL,
	"q" "bytea" NOT NULL,
	CONSTRAINT "reading_chunks_meter_id_month_start_pk" PRIMARY KEY("meter_id","month_start")
);
--> statement-breakpoint
ALTER TABLE "reading_chunks" ADD CONSTRAINT "reading_chunks_meter_id_meters_device_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("device_id") ON DELETE cascade ON UPDATE no action;