import { Data, Schema } from "effect"

/** The identity providers a flow can make a round trip to; a new one is added here and in the registry. */
export const ProviderName = Schema.Literal("idp_a", "idp_b")
export type ProviderName = typeof ProviderName.Type

/** The flow-level error values of spec 1 that a provider round trip can end with. */
export const ProviderFailureCode = Schema.Literal(
  "provider_cancelled",
  "provider_error",
  "provider_token_invalid",
  "provider_unavailable",
  "provider_config_changed",
  "provider_answer_elsewhere",
  "provider_email_invalid",
  "email_not_verified",
  "hosted_domain_mismatch"
)
export type ProviderFailureCode = typeof ProviderFailureCode.Type

/** A round trip that did not prove an identity; recorded on its flow as `flow.error`. */
export class ProviderFailed extends Data.TaggedError("ProviderFailed")<{
  readonly code: ProviderFailureCode
  readonly message: string
}> {}

/** What a provider proved: its subject and the verified email (normalized), with the name and photo it offers. */
export const ProviderIdentity = Schema.Struct({
  subject: Schema.String,
  email: Schema.String,
  name: Schema.NullOr(Schema.String),
  picture: Schema.NullOr(Schema.String)
})
export type ProviderIdentity = typeof ProviderIdentity.Type

/** The answer of a round trip as the callback recorded it, for the flow to claim. */
export const ProviderAnswer = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("identity"), identity: ProviderIdentity }),
  Schema.Struct({ kind: Schema.Literal("failed"), code: ProviderFailureCode, message: Schema.String })
)
export type ProviderAnswer = typeof ProviderAnswer.Type

export const failedAnswer = (failure: ProviderFailed): ProviderAnswer => ({
  kind: "failed",
  code: failure.code,
  message: failure.message
})
