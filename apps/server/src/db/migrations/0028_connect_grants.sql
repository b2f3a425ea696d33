CREATE TABLE "connect_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"meter_ids" integer[] NOT NULL,
	"data_kinds" text[] NOT NULL,
	"data_from" timestamp with time zone NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"oidc_grant_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	CONSTRAINT "connect_grants_oidc_grant_id_unique" UNIQUE("oidc_grant_id"),
	CONSTRAINT "connect_grants_range_check" CHECK ("connect_grants"."data_from" < "connect_grants"."until")
);
--> statement-breakpoint
CREATE TABLE "oauth_artefacts" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	CONSTRAINT "oauth_artefacts_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
ALTER TABLE "connect_grants" ADD CONSTRAINT "connect_grants_app_id_connect_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."connect_apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connect_grants" ADD CONSTRAINT "connect_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connect_grants_user_idx" ON "connect_grants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "connect_grants_app_idx" ON "connect_grants" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "oauth_artefacts_grant_idx" ON "oauth_artefacts" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_artefacts_uid_idx" ON "oauth_artefacts" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "oauth_artefacts_expires_idx" ON "oauth_artefacts" USING btree ("expires_at");