import { Schema } from "effect"
import { ProviderFailureCode, ProviderName } from "../providers/ProviderAnswer.ts"

/**
 * Why a link did not link: the provider's own failures, or spec 1's other flow-level values that a
 * link can meet (the browser's session changed, the identity or its email is another account's, the
 * account holds 10 emails already).
 */
export const LinkFailureCode = Schema.Union(
  ProviderFailureCode,
  Schema.Literal("session_changed", "identity_in_use", "email_in_use", "email_limit_reached")
)
export type LinkFailureCode = typeof LinkFailureCode.Type

/** What the repository keeps of a link. */
export const IdentityLinkRow = Schema.Struct({
  id: Schema.String,
  account_uuid: Schema.String,
  signin_id: Schema.String,
  provider: ProviderName,
  client_id: Schema.String,
  nonce: Schema.String,
  code_verifier: Schema.String,
  form_post: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.String })),
  created_at: Schema.DateFromSelf,
  expires_at: Schema.DateFromSelf,
  status: Schema.Literal("pending", "linked", "failed"),
  error_code: Schema.NullOr(LinkFailureCode),
  error_message: Schema.NullOr(Schema.String),
  identity_id: Schema.NullOr(Schema.String)
})
export type IdentityLinkRow = typeof IdentityLinkRow.Type

/** How a link ended at the callback. */
export type LinkOutcome =
  | { readonly kind: "linked"; readonly identityId: string }
  | { readonly kind: "failed"; readonly code: LinkFailureCode; readonly message: string }
