import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { AccountsUnavailable, AccountNotFound, InvalidId } from "@platform/accounts-identity-api"
import { errorResponse, InvalidCursor, Page, PageQueryFields } from "@platform/http"
import { Schema } from "effect"
import { IamBearer } from "../auth/IamBearer.ts"
import { OrganizationPath } from "./Api.ts"
import {
  AdminRequired,
  AlreadyMember,
  CarbonRequired,
  InvitationExists,
  InvitationExpired,
  InvitationNotFound,
  InvitationNotPending,
  OrganizationNotFound
} from "./errors.ts"
import { AcceptedInvitation, Invitation, NewInvitation } from "./Invitation.ts"

const InvitationPath = Schema.Struct({ invitation_id: Schema.String.pipe(Schema.maxLength(100)) })
const OrganizationInvitationPath = Schema.extend(OrganizationPath, InvitationPath)
const InvitationsPage = Page(Invitation, "InvitationsPage")

const unavailable = errorResponse(AccountsUnavailable)
const ended = [errorResponse(InvitationNotPending), errorResponse(InvitationExpired)] as const

export class InvitationsApi extends HttpApiGroup.make("invitations")
  .add(
    HttpApiEndpoint.post("invite", "/api/v1/organizations/:organization_id/invitations")
      .setPath(OrganizationPath)
      .setPayload(NewInvitation)
      .addSuccess(Invitation, { status: 201 })
      .addError(errorResponse(OrganizationNotFound))
      .addError(errorResponse(AdminRequired))
      .addError(errorResponse(AccountNotFound))
      .addError(errorResponse(InvalidId))
      .addError(errorResponse(AlreadyMember))
      .addError(errorResponse(InvitationExists))
      .addError(unavailable)
      .annotate(
        OpenApi.Description,
        "Invites a Carbon (owner or admin) for 48 hours: `to` an email address, which a Carbon on whom it is verified may accept, or a c: id (404 account_not_found when no active Carbon holds it; 409 already_member). One pending invitation per invitee (409 invitation_exists)."
      )
  )
  .add(
    HttpApiEndpoint.get("listOfOrganization", "/api/v1/organizations/:organization_id/invitations")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(InvitationsPage)
      .addError(errorResponse(OrganizationNotFound))
      .addError(errorResponse(AdminRequired))
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The organization's invitations in every status, oldest first (owner or admin).")
  )
  .add(
    HttpApiEndpoint.del("revoke", "/api/v1/organizations/:organization_id/invitations/:invitation_id")
      .setPath(OrganizationInvitationPath)
      .addSuccess(Invitation)
      .addError(errorResponse(OrganizationNotFound))
      .addError(errorResponse(AdminRequired))
      .addError(errorResponse(InvitationNotFound))
      .addError(ended[0])
      .addError(ended[1])
      .annotate(OpenApi.Description, "Withdraws a pending invitation (owner or admin); answers it as revoked.")
  )
  .add(
    HttpApiEndpoint.get("listMine", "/api/v1/invitations")
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(InvitationsPage)
      .addError(errorResponse(InvalidCursor))
      .addError(unavailable)
      .annotate(
        OpenApi.Description,
        "The caller's pending invitations: to its c: id, or to any email verified on its account now (accounts is asked). A Silicon has none."
      )
  )
  .add(
    HttpApiEndpoint.post("accept", "/api/v1/invitations/:invitation_id/accept")
      .setPath(InvitationPath)
      .addSuccess(AcceptedInvitation)
      .addError(errorResponse(CarbonRequired))
      .addError(errorResponse(InvitationNotFound))
      .addError(ended[0])
      .addError(ended[1])
      .addError(errorResponse(AlreadyMember))
      .addError(unavailable)
      .annotate(
        OpenApi.Description,
        "The invitee (a Carbon whose uuid or verified email the invitation names; anyone else 404 invitation_not_found) joins with the invitation's role."
      )
  )
  .add(
    HttpApiEndpoint.post("decline", "/api/v1/invitations/:invitation_id/decline")
      .setPath(InvitationPath)
      .addSuccess(Invitation)
      .addError(errorResponse(InvitationNotFound))
      .addError(ended[0])
      .addError(ended[1])
      .addError(unavailable)
      .annotate(OpenApi.Description, "The invitee declines; answers the invitation as declined.")
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Invitations")
{}
