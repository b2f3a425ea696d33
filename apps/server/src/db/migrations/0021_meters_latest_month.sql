-- Where a meter's latest reading lies: the newest UTC month its import channel was written to, for
-- register readings and for interval records, moved only forward by the readings triggers (a
-- delete leaves it, so it is never before the latest reading). The latest is looked for in that
-- month's partition first: planning a newest-first search over every monthly partition of both
-- tables took 7–10 ms on the 10M bench database (48 months), and grows with every month kept.
ALTER TABLE "meters" ADD COLUMN "last_register_month" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "meters" ADD COLUMN "last_interval_month" timestamp with time zone;--> statement-breakpoint
-- Once, a pass over each readings table (longer than a request may take).
SET LOCAL statement_timeout = 0;--> statement-breakpoint
UPDATE "meters" m SET "last_register_month" = r.month
FROM (SELECT meter_id, date_trunc('month', max(read_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month
      FROM register_readings WHERE channel = 1 GROUP BY meter_id) AS r
WHERE m.device_id = r.meter_id;--> statement-breakpoint
UPDATE "meters" m SET "last_interval_month" = i.month
FROM (SELECT meter_id, date_trunc('month', max(start_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month
      FROM interval_readings WHERE channel = 1 GROUP BY meter_id) AS i
WHERE m.device_id = i.meter_id;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "cm_readings_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  UPDATE meters m SET
    readings_version = nextval('meter_readings_versions'),
    last_register_month = CASE WHEN TG_ARGV[0] = 'read_at' THEN greatest(m.last_register_month, t.newest) ELSE m.last_register_month END,
    last_interval_month = CASE WHEN TG_ARGV[0] = 'start_at' THEN greatest(m.last_interval_month, t.newest) ELSE m.last_interval_month END
  FROM (SELECT u.meter_id, max(u.month_start) FILTER (WHERE u.channel = 1) AS newest
        FROM unnest(meter_ids, channels, months) AS u(meter_id, channel, month_start) GROUP BY u.meter_id) AS t
  WHERE m.device_id = t.meter_id;
  RETURN NULL;
END
$$;
