import { SqlClient } from "@effect/sql"
import { noStore } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { Effect, Layer } from "effect"
import { IamApi } from "../api.ts"
import { IamBearerLive } from "../auth/IamBearer.ts"
import { Memberships } from "../organizations/Memberships.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { Applications } from "./Applications.ts"
import { Bundles } from "./Bundles.ts"
import { rotateClientSecret } from "./rotateClientSecret.ts"
import { compiledGroup } from "@platform/service"

export const ApplicationsLive = compiledGroup(IamApi, "applications", (handlers) =>
  Effect.gen(function*() {
    const applications = yield* Applications
    const bundles = yield* Bundles
    return handlers
      .handle("read", ({ path }) => applications.publicView(path.app_id))
      .handle("bundle", ({ path }) => bundles.find(path.bundle_id))
  })).pipe(Layer.provide([Applications.Default, Bundles.Default]))

export const ApplicationCredentialsLive = compiledGroup(IamApi, "applicationCredentials", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return handlers.handle("rotateClientSecret", ({ path }) =>
      Effect.gen(function*() {
        yield* noStore
        const rotated = yield* rotateClientSecret(path.app_id)
        yield* carriesNewSecret
        return rotated
      }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die)))
  })).pipe(Layer.provide([Applications.Default, Memberships.Default, IamBearerLive]), Layer.provide(IamSessions.Default))
