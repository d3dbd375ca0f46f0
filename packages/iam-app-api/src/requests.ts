import { oauthParameter, oauthRequest, REFRESH_TOKEN } from "@platform/oauth"
import { Schema } from "effect"
import { SHORT_LIVED_TOKEN_GRANT } from "./grantTypes.ts"

/** Client authentication in the body (client_secret_post); HTTP Basic `app_id:client_secret` replaces both. */
const clientFields = {
  client_id: Schema.optional(oauthParameter("The application's app_id, with client_secret or agreeing with HTTP Basic")),
  client_secret: Schema.optional(oauthParameter("The application's client secret; never together with HTTP Basic"))
}

const grantType = (value: string) => Schema.Literal(value).annotations({ description: "The grant" })

/** The token endpoint's bodies: an SLT exchange, or a refresh (RFC 6749 §6). */
export const ApplicationTokenRequests = [
  oauthRequest("ShortLivedTokenExchangeRequest", "An SLT from IAM's login handoff, exchanged by the application it was minted for", {
    grant_type: grantType(SHORT_LIVED_TOKEN_GRANT),
    slt: oauthParameter("The slt_ token from the callback: 2 minutes, single use, this application only"),
    ...clientFields
  }),
  oauthRequest("ApplicationRefreshRequest", "A refresh of an application session", {
    grant_type: grantType(REFRESH_TOKEN),
    refresh_token: oauthParameter("The art_ refresh token; it rotates, and presenting a used one ends the session (invalid_grant)"),
    ...clientFields
  })
] as const

const tokenTypeHint = Schema.optional(oauthParameter("access_token or refresh_token; accepted and not needed"))

/** RFC 7662 §2.1. */
export const ApplicationIntrospectionRequest = oauthRequest(
  "ApplicationIntrospectionRequest",
  "Introspection (RFC 7662) of the application's own tokens",
  { token: oauthParameter("An application access token (aat_) or refresh token (art_)"), token_type_hint: tokenTypeHint, ...clientFields }
)

/** RFC 7009 §2.1. */
export const ApplicationRevocationRequest = oauthRequest(
  "ApplicationRevocationRequest",
  "Revocation (RFC 7009) of the application's own session",
  { token: oauthParameter("The application's access or refresh token"), token_type_hint: tokenTypeHint, ...clientFields }
)

export const OnBehalfOfProofRequest = oauthRequest(
  "OnBehalfOfProofRequest",
  "A proof that the application acts for a subject now, for one receiving application",
  {
    access_token: oauthParameter("A live access token of the application's session for the subject"),
    audience: oauthParameter("The app_id of the application that will verify the proof; only it can"),
    ...clientFields
  }
)

export const OnBehalfOfVerificationRequest = oauthRequest(
  "OnBehalfOfVerificationRequest",
  "Verifying (and spending) an on-behalf-of proof, by its audience",
  { proof: oauthParameter("The obo_ proof the acting application sent: 60 seconds, single use"), ...clientFields }
)
