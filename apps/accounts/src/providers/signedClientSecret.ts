import { Clock, Effect, Redacted } from "effect"
import { importPKCS8, SignJWT } from "jose"
import type { IdpBClientSettings } from "../config.ts"

/** A client secret lives this long: enough for the one token request it is made for. */
const LIFETIME_SECONDS = 300

/**
 * idp_b's client secret for one token request: an ES256 JWT with kid = key id, iss = team id,
 * sub = services id, aud = the provider's issuer, iat now and exp five minutes later.
 */
export const signedClientSecret = (client: IdpBClientSettings, audience: string) =>
  Effect.gen(function*() {
    const iat = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    // The key was checked (PKCS#8, P-256) when it was configured or stored: failing here is a defect.
    const key = yield* Effect.promise(() => importPKCS8(Redacted.value(client.privateKey), "ES256"))
    const jwt = yield* Effect.promise(() =>
      new SignJWT({})
        .setProtectedHeader({ alg: "ES256", kid: client.keyId })
        .setIssuer(client.teamId)
        .setSubject(client.servicesId)
        .setAudience(audience)
        .setIssuedAt(iat)
        .setExpirationTime(iat + LIFETIME_SECONDS)
        .sign(key)
    )
    return Redacted.make(jwt)
  })
