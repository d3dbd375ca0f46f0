import { SqlClient } from "@effect/sql"
import { sha256Hex } from "@platform/crypto"
import type { ApplicationIntrospection, ApplicationTokenResponse } from "@platform/iam-app-api"
import { type OAuthError, oauthError } from "@platform/oauth"
import { now } from "@platform/service"
import { Duration, Effect, Either, Option } from "effect"
import type { ApplicationRow } from "../applications/ApplicationsRepo.ts"
import { IamConfig } from "../config.ts"
import { LIFETIMES } from "../lifetimes.ts"
import { secretMatches } from "../applications/Applications.ts"
import { activeIntrospection, INACTIVE, tokenResponse } from "./answers.ts"
import { ApplicationSessionsRepo, type LiveSession } from "./ApplicationSessionsRepo.ts"
import { ShortLivedTokens } from "./ShortLivedTokens.ts"
import {
  APPLICATION_ACCESS_PREFIX,
  APPLICATION_REFRESH_PREFIX,
  newApplicationAccessToken,
  newApplicationRefreshToken,
  newApplicationSessionId
} from "./tokenFormats.ts"

const plus = (at: Date, duration: Duration.Duration) => new Date(at.getTime() + Duration.toMillis(duration))

/** A refusal decided inside a transaction that must still commit (a spent SLT, a family ended by a reuse). */
type Outcome = Either.Either<ApplicationTokenResponse, string>
const refused = (description: string): Outcome => Either.left(description)

/**
 * Application sessions: an SLT exchanged for one, refreshes that rotate (a reused refresh token ends the
 * family), introspection and revocation. A session lives while its parent IAM session and its subject do.
 */
export class ApplicationSessions extends Effect.Service<ApplicationSessions>()("iam/ApplicationSessions", {
  effect: Effect.gen(function*() {
    const repo = yield* ApplicationSessionsRepo
    const slts = yield* ShortLivedTokens
    const sql = yield* SqlClient.SqlClient
    const { publicUrl } = yield* IamConfig

    /** A new access token and the next refresh token of a live session. */
    const issue = (session: LiveSession, generation: number, at: Date) =>
      Effect.gen(function*() {
        const accessToken = newApplicationAccessToken()
        const refreshToken = newApplicationRefreshToken()
        yield* repo.insertRefreshToken({ digest: sha256Hex(refreshToken), sessionId: session.session_id, generation, at })
        yield* repo.insertAccessToken({
          digest: sha256Hex(accessToken),
          sessionId: session.session_id,
          at,
          expiresAt: plus(at, LIFETIMES.accessToken)
        })
        return tokenResponse(session, { accessToken, refreshToken, expiresIn: Duration.toSeconds(LIFETIMES.accessToken) })
      })

    /** Runs `step` in a transaction that commits whatever it decides, then answers a refusal as invalid_grant. */
    const committed = (step: Effect.Effect<Outcome>) =>
      step.pipe(
        sql.withTransaction,
        Effect.orDie,
        Effect.flatMap(Either.match({ onLeft: (description) => Effect.fail(oauthError("invalid_grant", description)), onRight: Effect.succeed }))
      )

    const exchange = (application: ApplicationRow, slt: string): Effect.Effect<ApplicationTokenResponse, OAuthError> =>
      committed(Effect.gen(function*() {
        const at = yield* now
        const spent = yield* slts.spend(slt, at)
        if (Option.isNone(spent)) return refused("The short-lived token is not valid.")
        const token = spent.value
        if (!token.first_use) return refused("The short-lived token was already used.")
        if (token.app_id !== application.app_id) return refused("The short-lived token was minted for another application.")
        if (token.expires_at <= at) return refused("The short-lived token has expired (they last 2 minutes).")
        const sessionId = newApplicationSessionId()
        const opened = yield* repo.open({
          id: sessionId,
          appId: application.app_id,
          identityUuid: token.identity_uuid,
          parentSessionId: token.parent_session_id,
          orgIds: token.org_ids,
          // Never more than the application holds now, whatever was approved.
          scopes: token.scopes.filter((scope) => (application.app_scope as ReadonlyArray<string>).includes(scope)),
          at,
          expiresAt: plus(at, LIFETIMES.applicationFamily)
        })
        const session = opened ? yield* repo.liveById(sessionId, at, false) : Option.none()
        if (Option.isNone(session)) {
          return refused("The login's IAM session has ended, or the subject is no longer a member of any organization chosen at login.")
        }
        return Either.right(yield* issue(session.value, 1, at))
      }))

    const refresh = (application: ApplicationRow, refreshToken: string): Effect.Effect<ApplicationTokenResponse, OAuthError> =>
      committed(Effect.gen(function*() {
        const at = yield* now
        const digest = sha256Hex(refreshToken)
        const owner = yield* repo.refreshTokenOwner(digest)
        if (Option.isNone(owner) || owner.value.app_id !== application.app_id) return refused("The refresh token is not valid.")
        // Locks the family: a second refresh of it waits here, then finds its token used.
        const session = yield* repo.liveById(owner.value.session_id, at, true)
        const generation = yield* repo.useRefreshToken(digest, at)
        if (Option.isNone(generation)) {
          yield* repo.end(owner.value.session_id, "refresh_token_reused", at)
          return refused("The refresh token was already used; its session has ended. Sign the subject in again.")
        }
        if (Option.isNone(session)) return refused("The session of this refresh token has ended.")
        return Either.right(yield* issue(session.value, generation.value + 1, at))
      }))

    const introspect = (appId: string, token: string): Effect.Effect<ApplicationIntrospection> =>
      Effect.gen(function*() {
        const at = yield* now
        const digest = sha256Hex(token)
        if (token.startsWith(APPLICATION_ACCESS_PREFIX)) {
          const session = yield* repo.liveByAccessToken(digest, appId, at)
          return Option.match(session, { onNone: () => INACTIVE, onSome: (live) => activeIntrospection(live, "Bearer", publicUrl) })
        }
        if (token.startsWith(APPLICATION_REFRESH_PREFIX)) {
          const session = yield* repo.liveByRefreshToken(digest, appId, at)
          return Option.match(session, { onNone: () => INACTIVE, onSome: (live) => activeIntrospection(live, "refresh_token", publicUrl) })
        }
        return INACTIVE
      })

    /**
     * Introspection of an access token with the application's credential check in the same statement (the hot
     * path of every spec 3 request); none when the application is unknown or the secret wrong.
     */
    const introspectAccessAs = (appId: string, secret: string, token: string): Effect.Effect<Option.Option<ApplicationIntrospection>> =>
      Effect.gen(function*() {
        const found = yield* repo.secretAndLiveAccess(appId, sha256Hex(token), yield* now)
        if (!secretMatches(Option.map(found, (row) => row.secretDigest), secret)) return Option.none()
        return Option.some(Option.match(Option.flatMap(found, (row) => row.session), {
          onNone: (): ApplicationIntrospection => INACTIVE,
          onSome: (live) => activeIntrospection(live, "Bearer", publicUrl)
        }))
      })

    /** RFC 7009: the application's own token ends its session; anything else is left alone. */
    const revoke = (appId: string, token: string): Effect.Effect<void> =>
      Effect.gen(function*() {
        const owner = yield* repo.sessionOfToken(sha256Hex(token))
        if (Option.isSome(owner) && owner.value.app_id === appId) yield* repo.end(owner.value.session_id, "revoked", yield* now)
      })

    return { exchange, refresh, introspect, introspectAccessAs, revoke } as const
  }),
  dependencies: [ApplicationSessionsRepo.Default, ShortLivedTokens.Default]
}) {}
