-- reading_chunks is a cache of readings: any statement that writes readings deletes the chunks of
-- every (meter, UTC month) it touched. The per-meter advisory lock is the one the chunk builder
-- holds while it reads a month and stores its chunk, so a chunk never outlives a concurrent write.
CREATE FUNCTION readings_invalidate_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(4242002, changed.meter_id)
  FROM (SELECT DISTINCT meter_id FROM changed_rows ORDER BY meter_id) AS changed;
  DELETE FROM reading_chunks c
  USING (SELECT DISTINCT meter_id, date_trunc('month', read_at, 'UTC') AS month_start FROM changed_rows) AS touched
  WHERE c.meter_id = touched.meter_id AND c.month_start = touched.month_start;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER readings_chunks_after_insert AFTER INSERT ON readings
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION readings_invalidate_chunks();
--> statement-breakpoint
CREATE TRIGGER readings_chunks_after_update_old AFTER UPDATE ON readings
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION readings_invalidate_chunks();
--> statement-breakpoint
CREATE TRIGGER readings_chunks_after_update_new AFTER UPDATE ON readings
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION readings_invalidate_chunks();
--> statement-breakpoint
CREATE TRIGGER readings_chunks_after_delete AFTER DELETE ON readings
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION readings_invalidate_chunks();
