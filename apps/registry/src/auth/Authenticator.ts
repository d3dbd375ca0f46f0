import { AccountsDirectory, AccountsUnavailable, type Identity } from "@platform/accounts-identity-api"
import { AccessTokenVerifier, bearerToken } from "@platform/auth"
import { ExpiringCache } from "@platform/service"
import { Clock, Effect, Option } from "effect"
import { RegistryConfig } from "../config.ts"
import { Unauthenticated } from "../errors.ts"
import type { Caller } from "./Caller.ts"

/** The developer platform's tokens carry this audience (spec 1). */
export const DEVELOPER_AUDIENCE = "developer"
const DEVELOPMENT_BEARER = /^dev\.([A-Za-z0-9_-]{1,100})$/
/** How long an account token's account is taken as current without asking accounts again. */
const ACCOUNT_RECHECK_MILLIS = 30_000

const refused = (message: string) =>
  new Unauthenticated({
    message,
    hint: "Send `Authorization: Bearer <access token>` from accounts for the registry's audience; refresh it when it expires."
  })

const callerOf = (identity: Identity, credential: Caller["credential"]): Caller => ({
  uuid: identity.uuid,
  id: identity.id,
  kind: identity.kind,
  displayName: identity.display_name,
  verifiedEmails: identity.kind === "carbon" ? identity.verified_emails : [],
  credential
})

/**
 * Turns a request's Authorization header into its caller. An account token is verified (issuer, signature
 * against accounts' JWKS, audience, expiry) and its account must be active at accounts (asked at most every
 * 30 s per account); a developer-platform token is verified the same way and its account asked on every request.
 */
export class Authenticator extends Effect.Service<Authenticator>()("registry/Authenticator", {
  effect: Effect.gen(function*() {
    const config = yield* RegistryConfig
    const verifier = yield* AccessTokenVerifier
    const directory = yield* AccountsDirectory
    const current = new ExpiringCache<Identity>(10_000)

    const activeAccount = (uuid: string, fresh: boolean) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const cached = fresh ? undefined : current.get(uuid, now)
        if (cached !== undefined) return cached
        const identity = yield* directory.byUuid(uuid).pipe(
          Effect.catchTag("AccountNotFound", () => Effect.fail(refused("The token's account does not exist.")))
        )
        if (identity.status !== "active") return yield* Effect.fail(refused("The token's account is not active."))
        if (!fresh) current.set(uuid, identity, now + ACCOUNT_RECHECK_MILLIS)
        return identity
      })

    const authenticate = (
      authorization: string | undefined
    ): Effect.Effect<Option.Option<Caller>, Unauthenticated | AccountsUnavailable> =>
      Effect.gen(function*() {
        if (authorization === undefined) return Option.none()
        const token = bearerToken(authorization)
        if (token === undefined) return yield* Effect.fail(refused("The Authorization header is not `Bearer <token>`."))
        const development = DEVELOPMENT_BEARER.exec(token)
        if (development !== null) {
          if (!config.developmentBearer) {
            return yield* Effect.fail(refused("Development bearers are accepted only with REGISTRY_DEVELOPMENT_BEARER=true."))
          }
          return Option.some(callerOf(yield* activeAccount(development[1]!, true), "development"))
        }
        const claims = yield* verifier.verify(token).pipe(
          Effect.catchTags({
            AccessTokenExpired: () => Effect.fail(refused("The access token has expired.")),
            AccessTokenWrongAudience: () => Effect.fail(refused("The access token was issued for another audience.")),
            AccessTokenInvalid: (error) => Effect.fail(refused(error.message)),
            JwksUnavailable: () =>
              Effect.fail(new AccountsUnavailable({ message: "Accounts' signing keys cannot be read now; retry shortly." }))
          })
        )
        const audiences = typeof claims.aud === "string" ? [claims.aud] : claims.aud
        const developer = !audiences.includes(config.audience)
        return Option.some(callerOf(yield* activeAccount(claims.sub, developer), developer ? "developer" : "account"))
      })

    return { authenticate }
  })
}) {}
