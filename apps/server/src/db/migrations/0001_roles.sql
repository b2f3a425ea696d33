-- Role ids are part of the spec (§3): 1 = Admin, 2 = Client.
INSERT INTO "roles" ("id", "name") VALUES (1, 'Admin'), (2, 'Client') ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_parent_id_fk" FOREIGN KEY ("parent_id") REFERENCES "devices"("id") ON DELETE SET NULL;
