CREATE SEQUENCE "public"."meter_readings_versions" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "meters" ADD COLUMN "readings_version" bigint DEFAULT nextval('meter_readings_versions') NOT NULL;--> statement-breakpoint
ALTER TABLE "reading_chunks" ADD COLUMN "version" bigserial NOT NULL;--> statement-breakpoint
-- Every statement that writes readings now also gives each meter it touched a new readings_version,
-- so results derived from a meter's readings (its completeness) can be kept and checked cheaply.
CREATE OR REPLACE FUNCTION readings_invalidate_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(4242002, changed.meter_id)
  FROM (SELECT DISTINCT meter_id FROM changed_rows ORDER BY meter_id) AS changed;
  DELETE FROM reading_chunks c
  USING (SELECT DISTINCT meter_id, date_trunc('month', read_at, 'UTC') AS month_start FROM changed_rows) AS touched
  WHERE c.meter_id = touched.meter_id AND c.month_start = touched.month_start;
  UPDATE meters m SET readings_version = nextval('meter_readings_versions')
  FROM (SELECT DISTINCT meter_id FROM changed_rows) AS changed
  WHERE m.device_id = changed.meter_id;
  RETURN NULL;
END
$$;
