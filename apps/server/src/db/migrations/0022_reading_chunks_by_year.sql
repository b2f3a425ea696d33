-- The chunk cache partitioned by year instead of by month. A chunk is one row per meter, channel
-- and month (0.3 bytes a reading), so a year of 100,000 meters is 1.2 million small rows: a year's
-- read then plans and probes two partitions, not thirteen (planning them took 0.5–1 ms warm and 3 ms
-- on a new connection on the 10M bench database, before any row was read; cold, each partition's
-- index was a read of its own). The readings tables stay monthly. The rows move as they are (same
-- versions: processes holding decoded months keep them).
ALTER TABLE "reading_chunks" RENAME TO "reading_chunks_by_month";--> statement-breakpoint
ALTER TABLE "reading_chunks_by_month" RENAME CONSTRAINT "reading_chunks_meter_id_channel_month_start_pk" TO "reading_chunks_by_month_pk";--> statement-breakpoint
ALTER TABLE "reading_chunks_by_month" RENAME CONSTRAINT "reading_chunks_meter_id_meters_device_id_fk" TO "reading_chunks_by_month_meter_fk";--> statement-breakpoint
CREATE TABLE "reading_chunks" (
	"meter_id" integer NOT NULL,
	"channel" smallint NOT NULL,
	"month_start" timestamp with time zone NOT NULL,
	"readings" integer NOT NULL,
	"rt" bytea NOT NULL,
	"rv" bytea NOT NULL,
	"rq" bytea NOT NULL,
	"it" bytea NOT NULL,
	"ie" bytea NOT NULL,
	"iv" bytea NOT NULL,
	"iq" bytea NOT NULL,
	"version" bigint DEFAULT nextval('reading_chunks_version_seq') NOT NULL,
	CONSTRAINT "reading_chunks_meter_id_channel_month_start_pk" PRIMARY KEY("meter_id","channel","month_start")
) PARTITION BY RANGE ("month_start");--> statement-breakpoint
ALTER SEQUENCE "reading_chunks_version_seq" OWNED BY "reading_chunks"."version";--> statement-breakpoint
ALTER TABLE "reading_chunks" ADD CONSTRAINT "reading_chunks_meter_id_meters_device_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("device_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint

-- Monthly partitions of the readings tables and yearly ones of the chunk cache for every month
-- that meets [lo, hi], created when missing; answers how many were created. One caller at a time
-- (advisory lock); callers keep their transaction short and set a lock_timeout, as creating a
-- partition locks its parent.
CREATE OR REPLACE FUNCTION cm_ensure_reading_partitions(lo timestamptz, hi timestamptz) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  month timestamp;
  last timestamp;
  parent text;
  created integer := 0;
BEGIN
  IF lo IS NULL OR hi IS NULL OR hi < lo THEN RETURN 0; END IF;
  PERFORM pg_advisory_xact_lock(4242003);
  month := date_trunc('month', lo AT TIME ZONE 'UTC');
  last := date_trunc('month', hi AT TIME ZONE 'UTC');
  WHILE month <= last LOOP
    FOREACH parent IN ARRAY ARRAY['register_readings', 'interval_readings'] LOOP
      IF to_regclass(format('%I', parent || to_char(month, '"_p"YYYY_MM'))) IS NULL THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
          parent || to_char(month, '"_p"YYYY_MM'), parent,
          (month AT TIME ZONE 'UTC')::text, ((month + interval '1 month') AT TIME ZONE 'UTC')::text);
        created := created + 1;
      END IF;
    END LOOP;
    IF to_regclass(format('%I', 'reading_chunks' || to_char(month, '"_p"YYYY'))) IS NULL THEN
      EXECUTE format('CREATE TABLE %I PARTITION OF reading_chunks FOR VALUES FROM (%L) TO (%L)',
        'reading_chunks' || to_char(month, '"_p"YYYY'),
        (date_trunc('year', month) AT TIME ZONE 'UTC')::text,
        ((date_trunc('year', month) + interval '1 year') AT TIME ZONE 'UTC')::text);
      created := created + 1;
    END IF;
    month := month + interval '1 month';
  END LOOP;
  RETURN created;
END
$$;--> statement-breakpoint

-- A year for every year the monthly chunk partitions covered, then the rows.
SELECT cm_ensure_reading_partitions(
  min(to_date(substring(c.relname from '_p(\d{4}_\d{2})$'), 'YYYY_MM')::timestamp AT TIME ZONE 'UTC'),
  max(to_date(substring(c.relname from '_p(\d{4}_\d{2})$'), 'YYYY_MM')::timestamp AT TIME ZONE 'UTC'))
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'reading_chunks_by_month'::regclass AND c.relname ~ '_p\d{4}_\d{2}$';--> statement-breakpoint
INSERT INTO "reading_chunks" ("meter_id", "channel", "month_start", "readings", "rt", "rv", "rq", "it", "ie", "iv", "iq", "version")
SELECT "meter_id", "channel", "month_start", "readings", "rt", "rv", "rq", "it", "ie", "iv", "iq", "version" FROM "reading_chunks_by_month";--> statement-breakpoint
DROP TABLE "reading_chunks_by_month";--> statement-breakpoint
-- Planned from statistics from the first read on, as the monthly partitions were.
ANALYZE "reading_chunks";
