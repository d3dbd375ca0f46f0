import { noStore, pageRequest, TimeAndId } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { Effect } from "effect"
import { IamApi } from "../api.ts"
import { CurrentIdentity } from "../auth/CurrentIdentity.ts"
import { StepUpGuard } from "../auth/StepUpGuard.ts"
import { OrganizationSilicons } from "./OrganizationSilicons.ts"
import { compiledGroup } from "@platform/service"

export const OrganizationSiliconsHttpLive = compiledGroup(IamApi, "organizationSilicons", (handlers) =>
  Effect.gen(function*() {
    const silicons = yield* OrganizationSilicons
    const stepUp = yield* StepUpGuard
    return handlers
      .handle("create", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* noStore
          yield* carriesNewSecret
          return yield* silicons.create(yield* CurrentIdentity, path.organization_id, payload)
        }))
      .handle("listRotationRequests", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const { after, limit } = yield* pageRequest(TimeAndId, urlParams)
          return yield* silicons.listRotationRequests(yield* CurrentIdentity, path.organization_id, urlParams.status, limit, after)
        }))
      .handle("requestRotation", ({ path }) =>
        Effect.flatMap(CurrentIdentity, (actor) => silicons.requestRotation(actor, path.organization_id, path.uuid)))
      .handle("rotateToken", ({ path }) =>
        Effect.gen(function*() {
          yield* noStore
          yield* carriesNewSecret
          return yield* silicons.rotateToken(
            yield* CurrentIdentity,
            path.organization_id,
            path.uuid,
            stepUp.spend({ action: "silicon.rotate_token", resourceId: path.uuid })
          )
        }))
  }))
