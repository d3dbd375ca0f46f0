import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { AccountsUnavailable } from "@platform/accounts-identity-api"
import { strict, ValidationFailed } from "@platform/http"
import { Schema } from "effect"
import { AppPath, EmptyObject } from "../apps/Api.ts"
import { AccountsRefused, AppNotFound, NotAnAuthor } from "../apps/errors.ts"
import { RegistryBearer } from "../auth/Bearer.ts"
import { registryError } from "../errors.ts"
import { AlreadyAnAuthor, AlreadyInvited, InviteNotFound, InviteNotPending } from "./errors.ts"

export const InviteStatus = Schema.Literal("pending", "accepted", "declined", "cancelled", "expired")

export const Invite = Schema.Struct({
  id: Schema.String,
  app_id: Schema.String,
  app_name: Schema.String,
  to: Schema.String.annotations({ description: "The c: or si: id or the email invited, as the author wrote it (ids lower-cased)" }),
  invitee_uuid: Schema.NullOr(Schema.String).annotations({ description: "The account invited by id; null for an email" }),
  email: Schema.NullOr(Schema.String).annotations({ description: "The email invited; whoever has it verified may answer" }),
  status: InviteStatus,
  invited_by: Schema.Struct({ uuid: Schema.String, id: Schema.NullOr(Schema.String), display_name: Schema.String }),
  created_at: Schema.Date,
  expires_at: Schema.Date.annotations({ description: "14 days after it was sent; a pending invitation past it is expired" }),
  decided_at: Schema.NullOr(Schema.Date)
}).annotations({ identifier: "Invite" })

const InviteList = Schema.Struct({ items: Schema.Array(Invite) }).annotations({ identifier: "InviteList" })
const InvitePath = Schema.Struct({ invite_id: Schema.String.pipe(Schema.maxLength(100)) })

const notFound = registryError(AppNotFound)
const notAuthor = registryError(NotAnAuthor)
const inviteNotFound = registryError(InviteNotFound)
const notPending = registryError(InviteNotPending)

/** Invitations to become an author (spec 2): pending → accepted / declined (by the invitee) / cancelled (by an author). */
export class InvitesApi extends HttpApiGroup.make("invites")
  .add(
    HttpApiEndpoint.post("create", "/v1/apps/:app_id/invites")
      .setPath(AppPath)
      .setPayload(strict(Schema.Struct({
        to: Schema.String.pipe(Schema.maxLength(254)).annotations({ description: "c: id, si: id or email" })
      })))
      .addSuccess(Invite, { status: 201 })
      .addError(notFound)
      .addError(notAuthor)
      .addError(registryError(ValidationFailed))
      .addError(registryError(AlreadyAnAuthor))
      .addError(registryError(AlreadyInvited))
      .addError(registryError(AccountsUnavailable))
      .middleware(RegistryBearer)
      .annotate(
        OpenApi.Description,
        "Authors: invites an account by its c: or si: id (resolved through accounts; unknown 422) or an email (answered by " +
          "whoever has it verified). One pending invitation per account or email (409 already_invited)."
      )
  )
  .add(
    HttpApiEndpoint.get("ofApp", "/v1/apps/:app_id/invites")
      .setPath(AppPath)
      .addSuccess(InviteList)
      .addError(notFound)
      .addError(notAuthor)
      .middleware(RegistryBearer)
      .annotate(OpenApi.Description, "Authors: the app's invitations in every state, newest first, at most 100.")
  )
  .add(
    HttpApiEndpoint.del("cancel", "/v1/apps/:app_id/invites/:invite_id")
      .setPath(Schema.Struct({ ...AppPath.fields, ...InvitePath.fields }))
      .addSuccess(Schema.Struct({ status: Schema.Literal("cancelled") }))
      .addError(notFound)
      .addError(notAuthor)
      .addError(inviteNotFound)
      .addError(notPending)
      .middleware(RegistryBearer)
      .annotate(OpenApi.Description, "Authors: cancels a pending invitation (409 invite_not_pending otherwise).")
  )
  .add(
    HttpApiEndpoint.get("mine", "/v1/invites")
      .addSuccess(InviteList)
      .middleware(RegistryBearer)
      .annotate(
        OpenApi.Description,
        "The caller's pending invitations: to their account, or to one of their verified emails (accounts' profile; a token " +
          "without the email scope sees those to the account only). Newest first, at most 100."
      )
  )
  .add(
    HttpApiEndpoint.post("accept", "/v1/invites/:invite_id/accept")
      .setPath(InvitePath)
      .setPayload(EmptyObject)
      .addSuccess(Schema.Struct({ status: Schema.Literal("accepted") }))
      .addError(inviteNotFound)
      .addError(notPending)
      .addError(registryError(AccountsRefused))
      .addError(registryError(AccountsUnavailable))
      .middleware(RegistryBearer)
      .annotate(OpenApi.Description, "The invitee, body {}: becomes an author of the app (accounts is told in the same step).")
  )
  .add(
    HttpApiEndpoint.post("decline", "/v1/invites/:invite_id/decline")
      .setPath(InvitePath)
      .setPayload(EmptyObject)
      .addSuccess(Schema.Struct({ status: Schema.Literal("declined") }))
      .addError(inviteNotFound)
      .addError(notPending)
      .middleware(RegistryBearer)
      .annotate(OpenApi.Description, "The invitee, body {}: declines.")
  )
  .annotate(OpenApi.Title, "Invites")
{}
