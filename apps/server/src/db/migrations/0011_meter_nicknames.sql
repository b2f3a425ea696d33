CREATE TABLE "meter_nicknames" (
	"user_id" integer NOT NULL,
	"meter_number" text NOT NULL,
	"nickname" text NOT NULL,
	CONSTRAINT "meter_nicknames_user_id_meter_number_pk" PRIMARY KEY("user_id","meter_number")
);
--> statement-breakpoint
ALTER TABLE "meter_nicknames" ADD CONSTRAINT "meter_nicknames_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;