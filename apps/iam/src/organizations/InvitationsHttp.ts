import { pageRequest, TimeAndId } from "@platform/http"
import { Effect } from "effect"
import { IamApi } from "../api.ts"
import { CurrentIdentity } from "../auth/CurrentIdentity.ts"
import { Invitations } from "./Invitations.ts"
import { compiledGroup } from "@platform/service"

export const InvitationsHttpLive = compiledGroup(IamApi, "invitations", (handlers) =>
  Effect.map(Invitations, (invitations) =>
    handlers
      .handle("invite", ({ path, payload }) =>
        Effect.flatMap(CurrentIdentity, (actor) => invitations.invite(actor, path.organization_id, payload)))
      .handle("listOfOrganization", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const { after, limit } = yield* pageRequest(TimeAndId, urlParams)
          return yield* invitations.listOfOrganization(yield* CurrentIdentity, path.organization_id, limit, after)
        }))
      .handle("revoke", ({ path }) =>
        Effect.flatMap(CurrentIdentity, (actor) => invitations.revoke(actor, path.organization_id, path.invitation_id)))
      .handle("listMine", ({ urlParams }) =>
        Effect.gen(function*() {
          const { after, limit } = yield* pageRequest(TimeAndId, urlParams)
          return yield* invitations.listMine(yield* CurrentIdentity, limit, after)
        }))
      .handle("accept", ({ path }) => Effect.flatMap(CurrentIdentity, (actor) => invitations.accept(actor, path.invitation_id)))
      .handle("decline", ({ path }) => Effect.flatMap(CurrentIdentity, (actor) => invitations.decline(actor, path.invitation_id)))
  ))
