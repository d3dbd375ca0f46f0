import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** No invitation with this id that the caller may see (of this app, or addressed to the caller). */
export class InviteNotFound extends ApiError<InviteNotFound>()("InviteNotFound", {
  code: "invite_not_found",
  status: 404
}) {}

/** The invitation was answered, cancelled or has expired. */
export class InviteNotPending extends ApiError<InviteNotPending>()("InviteNotPending", {
  code: "invite_not_pending",
  status: 409,
  details: Schema.Struct({ status: Schema.String })
}) {}

export class AlreadyAnAuthor extends ApiError<AlreadyAnAuthor>()("AlreadyAnAuthor", {
  code: "already_an_author",
  status: 409
}) {}

/** A pending invitation to the same account or email exists; cancel it to send another. */
export class AlreadyInvited extends ApiError<AlreadyInvited>()("AlreadyInvited", {
  code: "already_invited",
  status: 409,
  details: Schema.Struct({ invite_id: Schema.String })
}) {}
