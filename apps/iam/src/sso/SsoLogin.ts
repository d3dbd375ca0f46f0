import { HttpServerRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { AccountsDirectory } from "@platform/accounts-identity-api"
import { constantTimeEqual, sha256Hex } from "@platform/crypto"
import { ValidationFailed } from "@platform/http"
import { now } from "@platform/service"
import { Duration, Effect, Option } from "effect"
import { IamConfig } from "../config.ts"
import { carbonIdentity, isActiveCarbon } from "../identities/fromAccounts.ts"
import { MembersRepo } from "../organizations/MembersRepo.ts"
import { SecretsAtRest } from "../SecretsAtRest.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { SsoConnectionInactive, SsoConnectionNotFound, SsoNotAMember, SsoStateInvalid } from "./errors.ts"
import { SSO_ROUND_TRIP, ssoCallbackUrl, ssoOutboundPolicy } from "./policy.ts"
import { newRoundTripChecks, relyingParty } from "./relyingParty.ts"
import { type ConnectionRow, SsoRepo } from "./SsoRepo.ts"

/** Where a sign-in may send the browser afterwards: one of IAM's own paths, never another origin. */
export const checkReturnTo = (returnTo: string | undefined) => {
  const value = returnTo ?? "/"
  const own = value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") && value.length <= 2000 &&
    !/[\u0000-\u001f]/.test(value)
  return own
    ? Effect.succeed(value)
    : Effect.fail(new ValidationFailed({
      message: "return_to must be a path on IAM (starting with a single /).",
      details: { fields: { return_to: "must be a path on IAM" } }
    }))
}

const notAMember = () =>
  new SsoNotAMember({
    message: "The identity provider's verified email is not an active member of this organization.",
    hint: "Sign in with a code instead, or ask the organization for an invitation."
  })

/**
 * Members signing in to IAM through their organization's OpenID Connect provider: a round trip whose
 * state, nonce and PKCE verifier are kept (the verifier sealed) for 10 minutes and bound to the browser
 * by a cookie; the provider's verified email must be an active Carbon (accounts) who is an active member.
 */
export class SsoLogin extends Effect.Service<SsoLogin>()("iam/SsoLogin", {
  effect: Effect.gen(function*() {
    const config = yield* IamConfig
    const repo = yield* SsoRepo
    const members = yield* MembersRepo
    const directory = yield* AccountsDirectory
    const sessions = yield* IamSessions
    const secrets = yield* SecretsAtRest
    const sql = yield* SqlClient.SqlClient
    const policy = ssoOutboundPolicy(config)

    /** The connection, while it is active and its organization entitled. */
    const usable = (connectionId: string) =>
      Effect.gen(function*() {
        const found = yield* repo.connection(connectionId)
        if (Option.isNone(found)) return yield* new SsoConnectionNotFound({ message: "No SSO connection has this id." })
        const entitled = Option.isSome(yield* repo.entitlement(found.value.organization_id))
        if (found.value.status !== "active" || !entitled) {
          return yield* new SsoConnectionInactive({ message: "This SSO connection is not active.", hint: "Sign in with a code instead." })
        }
        return found.value
      })

    const providerOf = (row: ConnectionRow) =>
      Effect.flatMap(secrets.open("sso_client_secret", row.client_secret), (clientSecret) =>
        relyingParty(policy, { issuer: row.issuer, clientId: row.client_id, clientSecret }))

    return {
      /** The provider's authorization URL and the state to bind to the browser. */
      start: (connectionId: string, returnTo: string | undefined) =>
        Effect.gen(function*() {
          const target = yield* checkReturnTo(returnTo)
          const connection = yield* usable(connectionId)
          const provider = yield* providerOf(connection)
          const checks = newRoundTripChecks()
          const at = yield* now
          yield* repo.insertAttempt(sha256Hex(checks.state), {
            connection_id: connection.id,
            nonce: checks.nonce,
            code_verifier: secrets.seal("sso_round_trip", checks.codeVerifier),
            return_to: target,
            expires_at: new Date(at.getTime() + Duration.toMillis(SSO_ROUND_TRIP))
          })
          return { location: yield* provider.authorizationUrl(ssoCallbackUrl(config.publicUrl), checks), state: checks.state }
        }),

      /** The provider's answer: the round trip is spent whatever follows; a member gets an IAM session. */
      callback: (browserState: string | undefined) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const callbackUrl = new URL(request.url, config.publicUrl)
          const states = callbackUrl.searchParams.getAll("state")
          const state = states.length === 1 ? states[0]! : ""
          const invalid = new SsoStateInvalid({
            message: "This sign-in answer is unknown, expired, already used or was started in another browser.",
            hint: "Start signing in again."
          })
          if (state === "" || browserState === undefined || !constantTimeEqual(sha256Hex(state), sha256Hex(browserState))) {
            return yield* invalid
          }
          const attempt = yield* repo.spendAttempt(sha256Hex(state), yield* now)
          if (Option.isNone(attempt)) return yield* invalid
          const connection = yield* usable(attempt.value.connection_id)
          const provider = yield* providerOf(connection)
          const codeVerifier = yield* secrets.open("sso_round_trip", attempt.value.code_verifier)
          const claims = yield* provider.exchange(callbackUrl, { state, nonce: attempt.value.nonce, codeVerifier })
          if (typeof claims.email !== "string" || claims.email_verified !== true) return yield* notAMember()
          const email = claims.email.toLowerCase()
          const carbon = yield* directory.carbonByEmail(email).pipe(Effect.catchTag("AccountNotFound", () => Effect.fail(notAMember())))
          if (!isActiveCarbon(carbon)) return yield* notAMember()
          if (Option.isNone(yield* members.roleOf(connection.organization_id, carbon.uuid))) return yield* notAMember()
          const pair = yield* Effect.gen(function*() {
            const opened = yield* sessions.open(carbonIdentity(carbon), "sso")
            yield* repo.recordSession({ sessionId: opened.session_id, connectionId: connection.id, identityUuid: carbon.uuid, subject: claims.sub, email })
            return opened
          }).pipe(sql.withTransaction, Effect.orDie)
          return { pair, returnTo: attempt.value.return_to }
        })
    }
  }),
  dependencies: [SsoRepo.Default, MembersRepo.Default, IamSessions.Default, SecretsAtRest.Default]
}) {}
