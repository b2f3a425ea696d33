ALTER TABLE "alert_rules" DROP CONSTRAINT "alert_rules_kind_check";--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "demand" jsonb;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_kind_check" CHECK ("alert_rules"."kind" in ('silent', 'dailyAbove', 'usualAbove', 'registerDecrease', 'billAbove', 'priceAbove', 'peakNear'));