-- The readings triggers read a statement's rows once instead of four times: one pass groups them
-- into the (meter, channel, UTC month)s they touched — a handful per statement — and the chunk
-- deletes, the queue and the meters' readings_version work on those keys alone, through the
-- primary keys and only the partitions of those months (before, each write statement also
-- scanned every chunk partition, and the grouping took a time-zone lookup per row and per pass:
-- half of the time of a bulk write). One function serves both tables: the trigger names the
-- column that places a row in its month.
CREATE FUNCTION "cm_readings_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  meter_ids integer[];
  channels smallint[];
  months timestamptz[];
BEGIN
  EXECUTE format(
    'SELECT array_agg(meter_id), array_agg(channel), array_agg(month AT TIME ZONE ''UTC'')
     FROM (SELECT meter_id, channel, date_trunc(''month'', %I AT TIME ZONE ''UTC'') AS month
           FROM changed_rows GROUP BY 1, 2, 3) AS touched', TG_ARGV[0])
  INTO meter_ids, channels, months;
  IF meter_ids IS NULL THEN RETURN NULL; END IF;
  PERFORM pg_advisory_xact_lock(4242002, m) FROM (SELECT DISTINCT m FROM unnest(meter_ids) AS m ORDER BY m) AS locked;
  DELETE FROM reading_chunks c
  USING unnest(meter_ids, channels, months) AS t(meter_id, channel, month_start)
  WHERE c.meter_id = ANY(meter_ids)
    AND c.month_start BETWEEN (SELECT min(x) FROM unnest(months) AS x) AND (SELECT max(x) FROM unnest(months) AS x)
    AND c.meter_id = t.meter_id AND c.channel = t.channel AND c.month_start = t.month_start;
  INSERT INTO reading_chunk_queue (meter_id, channel, month_start)
  SELECT t.meter_id, t.channel, t.month_start FROM unnest(meter_ids, channels, months) AS t(meter_id, channel, month_start)
  WHERE EXISTS (SELECT 1 FROM meters m WHERE m.device_id = t.meter_id)
  ON CONFLICT DO NOTHING;
  UPDATE meters m SET readings_version = nextval('meter_readings_versions')
  WHERE m.device_id = ANY(meter_ids);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "register_readings_after_insert" ON "register_readings";--> statement-breakpoint
DROP TRIGGER "register_readings_after_update_old" ON "register_readings";--> statement-breakpoint
DROP TRIGGER "register_readings_after_update_new" ON "register_readings";--> statement-breakpoint
DROP TRIGGER "register_readings_after_delete" ON "register_readings";--> statement-breakpoint
DROP TRIGGER "interval_readings_after_insert" ON "interval_readings";--> statement-breakpoint
DROP TRIGGER "interval_readings_after_update_old" ON "interval_readings";--> statement-breakpoint
DROP TRIGGER "interval_readings_after_update_new" ON "interval_readings";--> statement-breakpoint
DROP TRIGGER "interval_readings_after_delete" ON "interval_readings";--> statement-breakpoint
DROP FUNCTION "register_readings_changed"();--> statement-breakpoint
DROP FUNCTION "interval_readings_changed"();--> statement-breakpoint
CREATE TRIGGER "register_readings_after_insert" AFTER INSERT ON "register_readings"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cm_readings_changed('read_at');--> statement-breakpoint
CREATE TRIGGER "register_readings_after_update_old" AFTER UPDATE ON "register_readings"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cm_readings_changed('read_at');--> statement-breakpoint
CREATE TRIGGER "register_readings_after_update_new" AFTER UPDATE ON "register_readings"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cm_readings_changed('read_at');--> statement-breakpoint
CREATE TRIGGER "register_readings_after_delete" AFTER DELETE ON "register_readings"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cm_readings_changed('read_at');--> statement-breakpoint
CREATE TRIGGER "interval_readings_after_insert" AFTER INSERT ON "interval_readings"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cm_readings_changed('start_at');--> statement-breakpoint
CREATE TRIGGER "interval_readings_after_update_old" AFTER UPDATE ON "interval_readings"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cm_readings_changed('start_at');--> statement-breakpoint
CREATE TRIGGER "interval_readings_after_update_new" AFTER UPDATE ON "interval_readings"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cm_readings_changed('start_at');--> statement-breakpoint
CREATE TRIGGER "interval_readings_after_delete" AFTER DELETE ON "interval_readings"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cm_readings_changed('start_at');
