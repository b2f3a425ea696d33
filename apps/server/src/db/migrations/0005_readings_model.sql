-- The readings model (README, "Readings"): a register value or an interval energy, kept as the
-- source said, per channel (1 import, 2 export), in millionths of the unit, with quality and
-- corrections. Replaces `readings` (registers in thousandths, interval files turned into registers).
-- The new tables and the chunk cache are partitioned by month (UTC) of their time column.

ALTER TABLE "meters" DROP CONSTRAINT "meters_interval_check";--> statement-breakpoint
-- Values are exact to 10^-6 of the unit while the register has at most 9 whole digits (10^15
-- millionths, below 2^53): no real kWh register shows more.
ALTER TABLE "meters" DROP CONSTRAINT "meters_register_digits_check";--> statement-breakpoint
UPDATE "meters" SET "register_digits" = 9 WHERE "register_digits" > 9;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_register_digits_check" CHECK ("meters"."register_digits" between 3 and 9);--> statement-breakpoint
ALTER TABLE "meters" ALTER COLUMN "interval_minutes" SET DATA TYPE integer;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_interval_check" CHECK ("meters"."interval_minutes" between 1 and 44640);--> statement-breakpoint
ALTER TABLE "meters" ADD COLUMN "channels" smallint[] DEFAULT '{1}'::smallint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_channels_check" CHECK ("meters"."channels" <@ '{1,2}'::smallint[] and 1 = any("meters"."channels"));--> statement-breakpoint

CREATE TABLE "register_readings" (
	"meter_id" integer NOT NULL,
	"channel" smallint DEFAULT 1 NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"value_micro" bigint NOT NULL,
	"quality" smallint DEFAULT 0 NOT NULL,
	"source" smallint DEFAULT 0 NOT NULL,
	"revision" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "register_readings_meter_id_channel_read_at_pk" PRIMARY KEY("meter_id","channel","read_at"),
	CONSTRAINT "register_readings_value_check" CHECK ("value_micro" >= 0)
) PARTITION BY RANGE ("read_at");--> statement-breakpoint

CREATE TABLE "interval_readings" (
	"meter_id" integer NOT NULL,
	"channel" smallint DEFAULT 1 NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"energy_micro" bigint NOT NULL,
	"quality" smallint DEFAULT 0 NOT NULL,
	"source" smallint DEFAULT 0 NOT NULL,
	"revision" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "interval_readings_meter_id_channel_start_at_pk" PRIMARY KEY("meter_id","channel","start_at"),
	CONSTRAINT "interval_readings_energy_check" CHECK ("energy_micro" >= 0),
	CONSTRAINT "interval_readings_span_check" CHECK ("end_at" > "start_at")
) PARTITION BY RANGE ("start_at");--> statement-breakpoint

CREATE TABLE "reading_revisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"meter_id" integer NOT NULL,
	"channel" smallint NOT NULL,
	"kind" smallint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone,
	"old_micro" bigint NOT NULL,
	"old_quality" smallint NOT NULL,
	"new_micro" bigint NOT NULL,
	"new_quality" smallint NOT NULL,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" integer,
	"actor_api_key_id" integer,
	"reason" text NOT NULL
);--> statement-breakpoint
CREATE INDEX "reading_revisions_meter_idx" ON "reading_revisions" USING btree ("meter_id","channel","at");--> statement-breakpoint

DROP TABLE "reading_chunks";--> statement-breakpoint
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
	"version" bigserial NOT NULL,
	CONSTRAINT "reading_chunks_meter_id_channel_month_start_pk" PRIMARY KEY("meter_id","channel","month_start")
) PARTITION BY RANGE ("month_start");--> statement-breakpoint

ALTER TABLE "register_readings" ADD CONSTRAINT "register_readings_meter_id_meters_device_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("device_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interval_readings" ADD CONSTRAINT "interval_readings_meter_id_meters_device_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("device_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_revisions" ADD CONSTRAINT "reading_revisions_meter_id_meters_device_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("device_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_chunks" ADD CONSTRAINT "reading_chunks_meter_id_meters_device_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("device_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint

-- Monthly partitions (UTC months) of the three tables for every month that meets [lo, hi], created
-- when missing; answers how many were created. One caller at a time (advisory lock); callers keep
-- their transaction short and set a lock_timeout, as creating a partition locks its parent.
CREATE FUNCTION cm_ensure_reading_partitions(lo timestamptz, hi timestamptz) RETURNS integer LANGUAGE plpgsql AS $$
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
    FOREACH parent IN ARRAY ARRAY['register_readings', 'interval_readings', 'reading_chunks'] LOOP
      IF to_regclass(format('%I', parent || to_char(month, '"_p"YYYY_MM'))) IS NULL THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
          parent || to_char(month, '"_p"YYYY_MM'), parent,
          (month AT TIME ZONE 'UTC')::text, ((month + interval '1 month') AT TIME ZONE 'UTC')::text);
        created := created + 1;
      END IF;
    END LOOP;
    month := month + interval '1 month';
  END LOOP;
  RETURN created;
END
$$;--> statement-breakpoint

-- The existing data: registers stay registers (thousandths become millionths); series an interval
-- import had turned into registers (source 2) become intervals again: each such reading's register
-- step is exactly the energy of the interval ending at it (the import added exactly that), and the
-- opening register such an import put before its first interval is dropped.
SELECT cm_ensure_reading_partitions(min(read_at) - interval '31 days', max(read_at)) FROM "readings";--> statement-breakpoint
INSERT INTO "register_readings" ("meter_id", "channel", "read_at", "value_micro", "quality", "source")
SELECT "meter_id", 1, "read_at", "register_milli" * 1000, "quality", "source" FROM "readings" WHERE "source" <> 2;--> statement-breakpoint
INSERT INTO "interval_readings" ("meter_id", "channel", "start_at", "end_at", "energy_micro", "quality", "source")
SELECT r.meter_id, 1,
       greatest(r.prev_at, r.read_at - make_interval(mins => m.interval_minutes)), r.read_at,
       ((r.register_milli - r.prev + g.range) % g.range) * m.multiplier * 1000, r.quality, 1
FROM (SELECT meter_id, read_at, register_milli, quality, source,
             lag(register_milli) OVER w AS prev, lag(read_at) OVER w AS prev_at
      FROM "readings" WINDOW w AS (PARTITION BY meter_id ORDER BY read_at)) r
JOIN "meters" m ON m.device_id = r.meter_id
CROSS JOIN LATERAL (SELECT (10::numeric ^ m.register_digits * 1000)::int8 AS range) g
WHERE r.source = 2 AND r.prev IS NOT NULL;--> statement-breakpoint

DROP TABLE "readings";--> statement-breakpoint
DROP FUNCTION "readings_invalidate_chunks"();--> statement-breakpoint

-- reading_chunks is a cache: any statement that writes readings deletes the chunks of every
-- (meter, channel, UTC month) it touched and gives each meter it touched a new
-- readings_version. The per-meter advisory lock is the one the chunk builder holds while it reads a
-- month and stores its chunk, so a chunk never outlives a concurrent write.
CREATE FUNCTION "register_readings_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(4242002, changed.meter_id)
  FROM (SELECT DISTINCT meter_id FROM changed_rows ORDER BY meter_id) AS changed;
  DELETE FROM reading_chunks c
  USING (SELECT DISTINCT meter_id, channel, date_trunc('month', read_at, 'UTC') AS month_start FROM changed_rows) AS touched
  WHERE c.meter_id = touched.meter_id AND c.channel = touched.channel AND c.month_start = touched.month_start;
  UPDATE meters m SET readings_version = nextval('meter_readings_versions')
  FROM (SELECT DISTINCT meter_id FROM changed_rows) AS changed
  WHERE m.device_id = changed.meter_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "interval_readings_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(4242002, changed.meter_id)
  FROM (SELECT DISTINCT meter_id FROM changed_rows ORDER BY meter_id) AS changed;
  DELETE FROM reading_chunks c
  USING (SELECT DISTINCT meter_id, channel, date_trunc('month', start_at, 'UTC') AS month_start FROM changed_rows) AS touched
  WHERE c.meter_id = touched.meter_id AND c.channel = touched.channel AND c.month_start = touched.month_start;
  UPDATE meters m SET readings_version = nextval('meter_readings_versions')
  FROM (SELECT DISTINCT meter_id FROM changed_rows) AS changed
  WHERE m.device_id = changed.meter_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "register_readings_after_insert" AFTER INSERT ON "register_readings"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION register_readings_changed();--> statement-breakpoint
CREATE TRIGGER "register_readings_after_update_old" AFTER UPDATE ON "register_readings"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION register_readings_changed();--> statement-breakpoint
CREATE TRIGGER "register_readings_after_update_new" AFTER UPDATE ON "register_readings"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION register_readings_changed();--> statement-breakpoint
CREATE TRIGGER "register_readings_after_delete" AFTER DELETE ON "register_readings"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION register_readings_changed();--> statement-breakpoint
CREATE TRIGGER "interval_readings_after_insert" AFTER INSERT ON "interval_readings"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION interval_readings_changed();--> statement-breakpoint
CREATE TRIGGER "interval_readings_after_update_old" AFTER UPDATE ON "interval_readings"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION interval_readings_changed();--> statement-breakpoint
CREATE TRIGGER "interval_readings_after_update_new" AFTER UPDATE ON "interval_readings"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION interval_readings_changed();--> statement-breakpoint
CREATE TRIGGER "interval_readings_after_delete" AFTER DELETE ON "interval_readings"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION interval_readings_changed();
