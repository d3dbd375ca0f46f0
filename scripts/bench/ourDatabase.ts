import { Database } from "@platform/database"
import { Option, Redacted } from "effect"
import { accountsMigrations } from "../../apps/accounts/src/migrations.ts"
import { databaseUrl } from "./lineup.ts"

/**
 * The database our server under test runs on, opened from the bench process to prepare data through
 * the service's own repositories (on the embedded one, as a client of the running server, like the
 * operator command).
 */
export const ourDatabase = (dataDir: string) =>
  Database.layer({
    url: databaseUrl === undefined ? Option.none() : Option.some(Redacted.make(databaseUrl)),
    dataDir,
    migrations: accountsMigrations
  })
