import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { OpenIdConfiguration } from "./OpenIdConfiguration.ts"

export const PublicJwk = Schema.Struct({
  kty: Schema.Literal("OKP", "RSA"),
  kid: Schema.String,
  alg: Schema.Literal("EdDSA", "RS256"),
  use: Schema.Literal("sig"),
  crv: Schema.optional(Schema.Literal("Ed25519")),
  x: Schema.optional(Schema.String),
  n: Schema.optional(Schema.String),
  e: Schema.optional(Schema.String)
}).annotations({ identifier: "PublicJwk" })

export const JsonWebKeySet = Schema.Struct({ keys: Schema.Array(PublicJwk) }).annotations({
  identifier: "JsonWebKeySet"
})

export class DiscoveryApi extends HttpApiGroup.make("discovery")
  .add(
    HttpApiEndpoint.get("openidConfiguration", "/.well-known/openid-configuration")
      .addSuccess(OpenIdConfiguration)
      .annotate(OpenApi.Description, "OpenID Provider metadata. CORS *, cacheable for 300 s.")
  )
  .add(
    HttpApiEndpoint.get("jwks", "/.well-known/jwks.json")
      .addSuccess(JsonWebKeySet)
      .annotate(
        OpenApi.Description,
        "Public signing keys: Ed25519 (EdDSA) for access and id tokens, RSA (RS256) for identity tokens only. CORS *, cacheable for 300 s; refetch on an unknown kid."
      )
  )
  .annotate(OpenApi.Title, "Discovery")
{}
