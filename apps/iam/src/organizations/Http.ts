import { pageRequest, TimeAndId } from "@platform/http"
import { Effect, Layer, Schema } from "effect"
import { IamApi } from "../api.ts"
import { CurrentIdentity } from "../auth/CurrentIdentity.ts"
import { IamBearerLive } from "../auth/IamBearer.ts"
import { StepUpGuard } from "../auth/StepUpGuard.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { Invitations } from "./Invitations.ts"
import { InvitationsHttpLive } from "./InvitationsHttp.ts"
import { Members } from "./Members.ts"
import { Organizations } from "./Organizations.ts"
import { OrganizationSilicons } from "./OrganizationSilicons.ts"
import { OrganizationSiliconsHttpLive } from "./SiliconsHttp.ts"
import { compiledGroup } from "@platform/service"

const OrganizationPosition = Schema.Tuple(Schema.String, Schema.String)
export const OrganizationsHttpLive = compiledGroup(IamApi, "organizations", (handlers) =>
  Effect.gen(function*() {
    const organizations = yield* Organizations
    const stepUp = yield* StepUpGuard
    return handlers
      .handle("create", ({ payload }) => Effect.flatMap(CurrentIdentity, (actor) => organizations.create(actor, payload)))
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const { after, limit } = yield* pageRequest(OrganizationPosition, urlParams)
          return yield* organizations.listMine(yield* CurrentIdentity, limit, after)
        }))
      .handle("read", ({ path }) => Effect.flatMap(CurrentIdentity, (actor) => organizations.read(actor, path.organization_id)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentIdentity, (actor) => organizations.update(actor, path.organization_id, payload)))
      .handle("setGovernance", ({ path, payload }) =>
        Effect.flatMap(CurrentIdentity, (actor) => organizations.setGovernance(actor, path.organization_id, payload)))
      .handle("transferOwnership", ({ path, payload }) =>
        Effect.flatMap(CurrentIdentity, (actor) =>
          organizations.transferOwnership(
            actor,
            path.organization_id,
            payload.uuid,
            stepUp.spend({ action: "organization.transfer_ownership", resourceId: path.organization_id })
          )))
  }))

export const MembersHttpLive = compiledGroup(IamApi, "members", (handlers) =>
  Effect.gen(function*() {
    const members = yield* Members
    const stepUp = yield* StepUpGuard
    return handlers
      .handle("list", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const { after, limit } = yield* pageRequest(TimeAndId, urlParams)
          return yield* members.list(yield* CurrentIdentity, path.organization_id, limit, after)
        }))
      .handle("read", ({ path }) => Effect.flatMap(CurrentIdentity, (actor) => members.read(actor, path.organization_id, path.uuid)))
      .handle("changeRole", ({ path, payload }) =>
        Effect.flatMap(CurrentIdentity, (actor) =>
          members.changeRole(
            actor,
            path.organization_id,
            path.uuid,
            payload.role,
            stepUp.spend({ action: "organization.authorization_change", resourceId: path.organization_id })
          )))
      .handle("remove", ({ path }) => Effect.flatMap(CurrentIdentity, (actor) => members.remove(actor, path.organization_id, path.uuid)))
  }))

/** Organizations, their members, invitations and Silicons, for a bearer; leaves StepUpGuard and AccountsDirectory to the composition root. */
export const OrganizationsLive = Layer.mergeAll(
  OrganizationsHttpLive,
  MembersHttpLive,
  InvitationsHttpLive,
  OrganizationSiliconsHttpLive
).pipe(
  Layer.provide([Organizations.Default, Members.Default, Invitations.Default, OrganizationSilicons.Default, IamBearerLive]),
  Layer.provide(IamSessions.Default)
)
