import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { InstallScript } from "./Release.ts"

const Count = Schema.Union(Schema.Number, Schema.NumberFromString)

/** A package of an app with what its releases say of it: in how many, and in how many not withdrawn. */
const ServedPackageRow = Schema.Struct({
  id: Schema.String,
  target: Schema.String,
  sha256: Schema.String,
  size: Schema.Number,
  install_script: Schema.NullOr(InstallScript),
  releases: Count,
  live_releases: Count
})
export type ServedPackageRow = typeof ServedPackageRow.Type
const decodeServed = rowsDecoder(ServedPackageRow)
const decodeBytes = rowsDecoder(Schema.Struct({ bytes: Schema.Uint8ArrayFromSelf }))
const decodeInstalls = rowsDecoder(Schema.Struct({ installs: Count }))

export interface NewInstall {
  readonly appId: string
  readonly releaseId: string
  readonly packageId: string
  readonly target: string
  readonly accountUuid: string | null
  readonly at: Date
}

/** What clients fetch and report: packages' bytes and install receipts. Database failures are defects. */
export class DeliveryRepo extends Effect.Service<DeliveryRepo>()("registry/DeliveryRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      servedPackage: (appId: string, packageId: string) =>
        sql`
          select p.id, p.target, p.sha256, p.size, p.install_script,
            (select count(*) from release_packages rp where rp.package_id = p.id) as releases,
            (select count(*) from release_packages rp join releases r on r.id = rp.release_id
              where rp.package_id = p.id and r.withdrawn_at is null) as live_releases
          from packages p where p.app_id = ${appId} and p.id = ${packageId}
        `.pipe(Effect.flatMap(decodeServed), Effect.map((rows) => Option.fromNullable(rows[0])), Effect.orDie),
      bytes: (packageId: string) =>
        sql`select bytes from packages where id = ${packageId}`.pipe(
          Effect.flatMap(decodeBytes),
          Effect.map((rows) => rows[0]?.bytes ?? new Uint8Array(0)),
          Effect.orDie
        ),
      /** Records the install and counts it on the app; the app's count after it. */
      recordInstall: (install: NewInstall) =>
        Effect.gen(function*() {
          yield* sql`
            insert into installs (id, app_id, release_id, package_id, target, account_uuid, created_at)
            values (${`inst_${randomUUID().replaceAll("-", "")}`}, ${install.appId}, ${install.releaseId}, ${install.packageId},
              ${install.target}, ${install.accountUuid}, ${install.at})
          `
          const rows = yield* sql`update apps set installs = installs + 1 where app_id = ${install.appId} returning installs`.pipe(
            Effect.flatMap(decodeInstalls)
          )
          return rows[0]?.installs ?? 0
        }).pipe(Effect.orDie)
    }
  })
}) {}
