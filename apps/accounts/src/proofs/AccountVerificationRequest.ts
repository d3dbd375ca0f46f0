import { strict } from "@platform/http"
import { Schema } from "effect"

/** Spec 1, App management: an answer is expected within 48 hours. */
export const RESPONSE_TIME_HOURS = 48

export const AccountVerificationRequest = Schema.Struct({
  request_id: Schema.String,
  account_uuid: Schema.String,
  context_app: Schema.Struct({ app_id: Schema.String, name: Schema.String, logo_url: Schema.NullOr(Schema.String) }),
  reason: Schema.String,
  status: Schema.Literal("pending", "approved", "rejected"),
  submitted_at: Schema.String,
  response_expected_by: Schema.String,
  reviewed_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AccountVerificationRequest" })
export type AccountVerificationRequest = typeof AccountVerificationRequest.Type

export const AccountVerificationRequestState = Schema.Struct({
  request: Schema.NullOr(AccountVerificationRequest),
  response_time_hours: Schema.Literal(RESPONSE_TIME_HOURS)
}).annotations({ identifier: "AccountVerificationRequestState" })

const filed = (created: boolean) =>
  Schema.Struct({
    request: AccountVerificationRequest,
    created: Schema.Literal(created),
    response_time_hours: Schema.Literal(RESPONSE_TIME_HOURS)
  })
export const FiledAccountVerificationRequest = filed(true).annotations({ identifier: "FiledAccountVerificationRequest" })
export const PendingAccountVerificationRequest = filed(false).annotations({ identifier: "PendingAccountVerificationRequest" })

export const NewAccountVerificationRequest = strict(Schema.Struct({
  reason: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(5000)).annotations({ description: "1 to 5000 characters, trimmed" })
})).annotations({ identifier: "NewAccountVerificationRequest" })
