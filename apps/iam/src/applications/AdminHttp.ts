import { SqlClient } from "@effect/sql"
import { pageOf, pageRequest } from "@platform/http"
import { Effect, Layer, Schema } from "effect"
import { IamApi } from "../api.ts"
import { IamBearerLive } from "../auth/IamBearer.ts"
import { PlatformAdminsRepo } from "../platform-admins/PlatformAdminsRepo.ts"
import { requirePlatformAdmin } from "../platform-admins/requirePlatformAdmin.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { Applications } from "./Applications.ts"
import { ApplicationsRepo } from "./ApplicationsRepo.ts"
import { reviewScopes } from "./reviewScopes.ts"
import { registeredApplication } from "./views.ts"
import { compiledGroup } from "@platform/service"

export const ApplicationReviewsLive = compiledGroup(IamApi, "applicationReviews", (handlers) =>
  Effect.gen(function*() {
    const applications = yield* Applications
    const repo = yield* ApplicationsRepo
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("awaitingReview", ({ urlParams }) =>
        Effect.gen(function*() {
          yield* requirePlatformAdmin
          const { after, limit } = yield* pageRequest(Schema.String, urlParams)
          const rows = yield* repo.awaitingReview(after, limit + 1)
          const page = pageOf(rows, limit, (row) => row.app_id)
          const items = yield* Effect.forEach(page.items, (row) =>
            Effect.map(repo.pendingScopes(row.app_id), (pending) => registeredApplication(row, pending)))
          return { items, next_cursor: page.nextCursor }
        }))
      .handle("read", ({ path }) => Effect.zipRight(requirePlatformAdmin, applications.registered(path.app_id)))
      .handle("review", ({ path, payload }) =>
        reviewScopes(path.app_id, payload).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die)))
  })).pipe(
  Layer.provide([Applications.Default, ApplicationsRepo.Default, PlatformAdminsRepo.Default, IamBearerLive]),
  Layer.provide(IamSessions.Default)
)
