import { SqlClient } from "@effect/sql"
import { ValidationFailed } from "@platform/http"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import { APP_ID_PATTERN } from "./Application.ts"
import { ApplicationsRepo } from "./ApplicationsRepo.ts"
import type { Bundle } from "./Bundle.ts"
import { BundlesRepo } from "./BundlesRepo.ts"
import { BundleNotFound } from "./errors.ts"
import { publicApplication } from "./views.ts"

/** A batch login takes 1 to 100 applications (spec 2, Limits); so does a bundle. */
export const MAX_BUNDLE_APPLICATIONS = 100

const invalid = (field: string, problem: string) =>
  new ValidationFailed({ message: "The bundle is not valid.", details: { fields: { [field]: problem } } })

/** Bundles: one id naming several registered applications, in order. */
export class Bundles extends Effect.Service<Bundles>()("iam/Bundles", {
  effect: Effect.gen(function*() {
    const bundles = yield* BundlesRepo
    const applications = yield* ApplicationsRepo
    const sql = yield* SqlClient.SqlClient

    const find = (bundleId: string): Effect.Effect<Bundle, BundleNotFound> =>
      Effect.gen(function*() {
        const row = yield* bundles.find(bundleId)
        if (Option.isNone(row)) return yield* new BundleNotFound({ message: `No bundle has the id ${JSON.stringify(bundleId)}.` })
        const members = yield* applications.findMany(row.value.app_ids)
        const byId = new Map(members.map((member) => [member.app_id, member]))
        return {
          bundle_id: row.value.bundle_id,
          applications: row.value.app_ids.flatMap((appId) => {
            const member = byId.get(appId)
            return member === undefined ? [] : [publicApplication(member)]
          }),
          created_at: row.value.created_at.toISOString()
        }
      })

    /** A bundle of 1 to 100 distinct registered applications. */
    const create = (bundleId: string, appIds: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        if (!APP_ID_PATTERN.test(bundleId)) return yield* invalid("bundle_id", "must be 3 to 30 characters of a-z 0-9 - _")
        if (appIds.length === 0 || appIds.length > MAX_BUNDLE_APPLICATIONS) {
          return yield* invalid("app_ids", `name 1 to ${MAX_BUNDLE_APPLICATIONS} applications`)
        }
        if (new Set(appIds).size !== appIds.length) return yield* invalid("app_ids", "names an application twice")
        const known = new Set((yield* applications.findMany(appIds)).map((row) => row.app_id))
        const unknown = appIds.filter((appId) => !known.has(appId))
        if (unknown.length > 0) return yield* invalid("app_ids", `no application has the id ${unknown.join(", ")}`)
        yield* bundles.insert(bundleId, appIds, yield* now)
        return yield* Effect.orDie(find(bundleId))
      }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))

    return { find, create } as const
  }),
  dependencies: [BundlesRepo.Default, ApplicationsRepo.Default]
}) {}
