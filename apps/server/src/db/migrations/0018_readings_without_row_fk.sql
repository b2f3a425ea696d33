ALTER TABLE "interval_readings" DROP CONSTRAINT "interval_readings_meter_id_meters_device_id_fk";
--> statement-breakpoint
ALTER TABLE "register_readings" DROP CONSTRAINT "register_readings_meter_id_meters_device_id_fk";
--> statement-breakpoint
-- Readings have no foreign key to meters any more (a check per row halved the write rate): the
-- statements that write them lock the meters they touch (FOR KEY SHARE, once per meter), and a
-- deleted meter's readings are deleted here, as the cascade did. The readings triggers queue months
-- to pack only for meters that still exist (before, deleting a meter with readings failed on the
-- queue's foreign key).
CREATE OR REPLACE FUNCTION "register_readings_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(4242002, changed.meter_id)
  FROM (SELECT DISTINCT meter_id FROM changed_rows ORDER BY meter_id) AS changed;
  DELETE FROM reading_chunks c
  USING (SELECT DISTINCT meter_id, channel, date_trunc('month', read_at, 'UTC') AS month_start FROM changed_rows) AS touched
  WHERE c.meter_id = touched.meter_id AND c.channel = touched.channel AND c.month_start = touched.month_start;
  INSERT INTO reading_chunk_queue (meter_id, channel, month_start)
  SELECT DISTINCT meter_id, channel, date_trunc('month', read_at, 'UTC') FROM changed_rows
  WHERE EXISTS (SELECT 1 FROM meters m WHERE m.device_id = changed_rows.meter_id)
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
  WHERE EXISTS (SELECT 1 FROM meters m WHERE m.device_id = changed_rows.meter_id)
  ON CONFLICT DO NOTHING;
  UPDATE meters m SET readings_version = nextval('meter_readings_versions')
  FROM (SELECT DISTINCT meter_id FROM changed_rows) AS changed
  WHERE m.device_id = changed.meter_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "meters_readings_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM register_readings r USING deleted_meters d WHERE r.meter_id = d.device_id;
  DELETE FROM interval_readings i USING deleted_meters d WHERE i.meter_id = d.device_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "meters_after_delete" AFTER DELETE ON "meters"
  REFERENCING OLD TABLE AS deleted_meters FOR EACH STATEMENT EXECUTE FUNCTION meters_readings_deleted();
