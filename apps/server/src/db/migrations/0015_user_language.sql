-- Alert e-mails in the reader's language: the user's language, and the one each queued e-mail is written in.
ALTER TABLE "alert_notifications" ADD COLUMN "email_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language_check" CHECK ("users"."language" in ('en', 'fr', 'de', 'pt'));