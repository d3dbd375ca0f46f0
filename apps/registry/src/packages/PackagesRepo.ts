import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Schema } from "effect"
import { CommandResult, type InstallScript } from "./Package.ts"

const PackageRow = Schema.Struct({
  id: Schema.String,
  target: Schema.String,
  sha256: Schema.String,
  size: Schema.Number,
  command: Schema.NullOr(Schema.String),
  validation: Schema.Array(CommandResult),
  created_at: Schema.DateFromSelf
})
export type PackageRow = typeof PackageRow.Type
const decodePackages = rowsDecoder(PackageRow)

export interface NewPackage {
  readonly id: string
  readonly appId: string
  readonly target: string
  readonly sha256: string
  readonly size: number
  readonly command: string
  readonly validation: ReadonlyArray<CommandResult>
  readonly installScript: InstallScript | null
  readonly bytes: Uint8Array
  readonly uploadedBy: string
  readonly createdAt: Date
}

/** Accepted packages, their bytes and their validation (the catalogue's `packages`). */
export class PackagesRepo extends Effect.Service<PackagesRepo>()("registry/PackagesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      insert: (row: NewPackage) =>
        sql`
          insert into packages (id, app_id, target, sha256, size, command, validation, install_script, bytes, uploaded_by, created_at)
          values (
            ${row.id}, ${row.appId}, ${row.target}, ${row.sha256}, ${row.size}, ${row.command},
            ${JSON.stringify(row.validation)}::jsonb,
            ${row.installScript === null ? null : JSON.stringify(row.installScript)}::jsonb,
            ${row.bytes}, ${row.uploadedBy}, ${row.createdAt}
          )
        `.pipe(Effect.asVoid, Effect.orDie),
      /** The app's packages, newest first, without their bytes. */
      listOf: (appId: string) =>
        sql`
          select id, target, sha256, size, command, validation, created_at from packages
          where app_id = ${appId} order by created_at desc, id desc
        `.pipe(Effect.flatMap(decodePackages), Effect.orDie)
    }
  })
}) {}
