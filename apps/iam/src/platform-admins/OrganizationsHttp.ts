import { pageOf, pageRequest } from "@platform/http"
import { Effect, Layer, Option, Schema } from "effect"
import { IamApi } from "../api.ts"
import { IamBearerLive } from "../auth/IamBearer.ts"
import { OrganizationNotFound } from "../organizations/errors.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { SsoConfiguration } from "../sso/SsoConfiguration.ts"
import { AdminOrganizationsRepo } from "./AdminOrganizationsRepo.ts"
import { PlatformAdminsRepo } from "./PlatformAdminsRepo.ts"
import { requirePlatformAdmin } from "./requirePlatformAdmin.ts"
import { compiledGroup } from "@platform/service"

export const AdminOrganizationsLive = compiledGroup(IamApi, "adminOrganizations", (handlers) =>
  Effect.gen(function*() {
    const repo = yield* AdminOrganizationsRepo
    const sso = yield* SsoConfiguration
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          yield* requirePlatformAdmin
          const { after, limit } = yield* pageRequest(Schema.String, urlParams)
          const page = pageOf(yield* repo.page(after, limit + 1), limit, (entry) => entry.organization.id)
          return { items: page.items, next_cursor: page.nextCursor }
        }))
      .handle("read", ({ path }) =>
        Effect.gen(function*() {
          yield* requirePlatformAdmin
          const found = yield* repo.find(path.organization_id)
          if (Option.isNone(found)) return yield* new OrganizationNotFound({ message: "No organization has this id." })
          return { ...found.value, sso: yield* sso.stateOf(path.organization_id) }
        }))
      .handle("replaceEntitlement", ({ path, payload }) =>
        Effect.flatMap(requirePlatformAdmin, (admin) => sso.replaceEntitlement(path.organization_id, payload.max_connections, admin.uuid)))
      .handle("removeEntitlement", ({ path }) =>
        Effect.flatMap(requirePlatformAdmin, (admin) => sso.removeEntitlement(path.organization_id, admin.uuid)))
  })).pipe(
  Layer.provide([AdminOrganizationsRepo.Default, SsoConfiguration.Default, PlatformAdminsRepo.Default, IamBearerLive]),
  Layer.provide(IamSessions.Default)
)
