-- Packed months change format (packed-column.ts: steps between neighbours as variable-length
-- integers instead of float64s, a few bytes per reading) and stay in the row: a month of 15-minute
-- readings fits in one page, so a meter's year is read from twelve pages instead of the TOAST
-- table's hundreds. The months packed before wait in the queue to be packed again.
ALTER TABLE "reading_chunks"
  ALTER COLUMN "rt" SET STORAGE MAIN, ALTER COLUMN "rv" SET STORAGE MAIN, ALTER COLUMN "rq" SET STORAGE MAIN,
  ALTER COLUMN "it" SET STORAGE MAIN, ALTER COLUMN "ie" SET STORAGE MAIN, ALTER COLUMN "iv" SET STORAGE MAIN,
  ALTER COLUMN "iq" SET STORAGE MAIN;--> statement-breakpoint
INSERT INTO reading_chunk_queue (meter_id, channel, month_start)
SELECT meter_id, channel, month_start FROM reading_chunks
ON CONFLICT DO NOTHING;--> statement-breakpoint
TRUNCATE reading_chunks;
