import type { Migrations } from "@platform/database"
import { IdempotencyAnswerExpiryMigration, IdempotencyMigration } from "@platform/idempotency"
import { RateLimitMigration } from "@platform/rate-limit"
import { SweepLeasesMigration } from "@platform/service"
import { AppsMigration } from "./apps/AppsMigration.ts"
import { CatalogueMigration } from "./apps/CatalogueMigration.ts"
import { HistoryOrderMigration } from "./history/HistoryOrderMigration.ts"
import { InvitesMigration } from "./invites/InvitesMigration.ts"
import { ReleasesMigration } from "./releases/ReleasesMigration.ts"
import { ReleaseSigningKeysMigration } from "./signing/SigningKeysMigration.ts"
import { CatalogueChangesMigration } from "./search/CatalogueChangesMigration.ts"
import { SearchMigration } from "./search/SearchMigration.ts"

/**
 * The registry database, in the order it was built. Append only: a migration
 * that has run is never edited, and a new one takes the next number.
 */
export const registryMigrations: Migrations = {
  "0001_sweep_leases": SweepLeasesMigration,
  "0002_rate_limits": RateLimitMigration,
  "0003_idempotency": IdempotencyMigration,
  "0004_idempotency_answer_expiry": IdempotencyAnswerExpiryMigration,
  "0005_catalogue": CatalogueMigration,
  "0006_apps": AppsMigration,
  "0007_invites": InvitesMigration,
  "0008_releases": ReleasesMigration,
  "0009_release_signing_keys": ReleaseSigningKeysMigration,
  "0010_search": SearchMigration,
  "0011_catalogue_changes": CatalogueChangesMigration,
  "0012_history_order": HistoryOrderMigration
}
