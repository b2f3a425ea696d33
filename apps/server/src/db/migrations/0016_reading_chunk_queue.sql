-- Months to pack: every statement that writes readings also queues each (meter, channel, UTC
-- month) it touched, beside deleting its chunk; the server packs the settled ones in the
-- background (readings-store.ts, packQueued), so the first request for a meter's year finds its
-- chunks stored instead of building twelve of them.
CREATE TABLE "reading_chunk_queue" (
	"meter_id" integer NOT NULL,
	"channel" smallint NOT NULL,
	"month_start" timestamp with time zone NOT NULL,
	CONSTRAINT "reading_chunk_queue_meter_id_channel_month_start_pk" PRIMARY KEY("meter_id","channel","month_start")
);
--> statement-breakpoint
ALTER TABLE "reading_chunk_queue" ADD CONSTRAINT "reading_chunk_queue_meter_id_meters_device_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("device_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "register_readings_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(4242002, changed.meter_id)
  FROM (SELECT DISTINCT meter_id FROM changed_rows ORDER BY meter_id) AS changed;
  DELETE FROM reading_chunks c
  USING (SELECT DISTINCT meter_id, channel, date_trunc('month', read_at, 'UTC') AS month_start FROM changed_rows) AS touched
  WHERE c.meter_id = touched.meter_id AND c.channel = touched.channel AND c.month_start = touched.month_start;
  INSERT INTO reading_chunk_queue (meter_id, channel, month_start)
  SELECT DISTINCT meter_id, channel, date_trunc('month', read_at, 'UTC') FROM changed_rows
  ON CONFLICT DO NOTHING;
  UPDATE meters m SET readings_version = nextval('meter_readings_versions')
  FROM (SELECT DISTINCT meter_id FROM changed_rows) AS changed
  WHERE m.device_id = changed.meter_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "interval_readings_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(4242002, changed.meter_id)
  FROM (SELECT DISTINCT meter_id FROM changed_rows ORDER BY meter_id) AS changed;
  DELETE FROM reading_chunks c
  USING (SELECT DISTINCT meter_id, channel, date_trunc('month', start_at, 'UTC') AS month_start FROM changed_rows) AS touched
  WHERE c.meter_id = touched.meter_id AND c.channel = touched.channel AND c.month_start = touched.month_start;
  INSERT INTO reading_chunk_queue (meter_id, channel, month_start)
  SELECT DISTINCT meter_id, channel, date_trunc('month', start_at, 'UTC') FROM changed_rows
  ON CONFLICT DO NOTHING;
  UPDATE meters m SET readings_version = nextval('meter_readings_versions')
  FROM (SELECT DISTINCT meter_id FROM changed_rows) AS changed
  WHERE m.device_id = changed.meter_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The months already stored without a chunk wait to be packed too.
INSERT INTO reading_chunk_queue (meter_id, channel, month_start)
SELECT meter_id, channel, date_trunc('month', read_at, 'UTC') FROM register_readings
UNION
SELECT meter_id, channel, date_trunc('month', start_at, 'UTC') FROM interval_readings
EXCEPT
SELECT meter_id, channel, month_start FROM reading_chunks;
