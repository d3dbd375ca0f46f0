import { type OAuthError, oauthError } from "@platform/oauth"
import { Clock, Context, Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import type { IamApplicationCalls, RetryKey } from "./IamApplicationClient.ts"
import type { ApplicationIntrospection, ApplicationTokenResponse, SubjectKind } from "./responses.ts"

/** Who a fake login signs in. */
export interface FakeSubject {
  readonly uuid: string
  /** c:… or si:… */
  readonly id: string
  readonly kind: SubjectKind
}

/** Spec 2's fixed lifetimes, as IAM applies them. */
const SLT_MILLIS = 2 * 60_000
const ACCESS_MILLIS = 30 * 60_000
const FAMILY_MILLIS = 900 * 24 * 3_600_000
const PROOF_MILLIS = 60_000

const token = (prefix: string) => prefix + randomBytes(32).toString("base64url")

interface Slt {
  readonly appId: string
  readonly subject: FakeSubject
  readonly orgIds: ReadonlyArray<string>
  readonly scopes: ReadonlyArray<string>
  readonly expiresAt: number
  used: boolean
}

interface Session {
  readonly id: string
  readonly appId: string
  readonly subject: FakeSubject
  readonly orgIds: ReadonlyArray<string>
  readonly scopes: ReadonlyArray<string>
  readonly expiresAt: number
  ended: boolean
}

/** IAM in memory, for tests of applications: what a login handoff and IAM's own state changes would do. */
export interface FakeIamControls {
  /** What IAM's login handoff does: an SLT for `appId`, 2 minutes, single use. */
  readonly issueShortLivedToken: (login: {
    readonly appId: string
    readonly subject: FakeSubject
    readonly orgIds: ReadonlyArray<string>
    readonly scopes: ReadonlyArray<string>
  }) => Effect.Effect<string>
  /** The subject's IAM sessions end (logout, revocation, a deleted account): every application session of theirs ends with them. */
  readonly endParentSessions: (subjectUuid: string) => Effect.Effect<void>
  /** The subject leaves an organization: sessions drop it, and a session with none left is inactive. */
  readonly removeMembership: (subjectUuid: string, orgId: string) => Effect.Effect<void>
  /** The calls of one application to this IAM. */
  readonly clientFor: (appId: string) => IamApplicationCalls
}

const makeFake = (): FakeIamControls => {
  const slts = new Map<string, Slt>()
  const sessions = new Map<string, Session>()
  const accessTokens = new Map<string, { readonly sessionId: string; readonly issuedAt: number; readonly expiresAt: number }>()
  const refreshTokens = new Map<string, { readonly sessionId: string; readonly issuedAt: number; used: boolean }>()
  const proofs = new Map<string, { readonly sessionId: string; readonly audience: string; readonly expiresAt: number; used: boolean }>()
  const removed = new Set<string>()
  const answered = new Map<string, ApplicationTokenResponse>()

  const invalidGrant = (description: string) => oauthError("invalid_grant", description)
  const liveOrgs = (session: Session) => session.orgIds.filter((orgId) => !removed.has(`${session.subject.uuid}\n${orgId}`))
  const live = (session: Session | undefined, at: number): session is Session =>
    session !== undefined && !session.ended && session.expiresAt > at && liveOrgs(session).length > 0

  const subjectOf = (session: Session) => ({
    sub: session.subject.uuid,
    subject_kind: session.subject.kind,
    username: session.subject.id,
    org_ids: liveOrgs(session),
    scope: session.scopes.join(" "),
    session_id: session.id
  })

  const issue = (session: Session, at: number): ApplicationTokenResponse => {
    const access = token("aat_")
    const refresh = token("art_")
    accessTokens.set(access, { sessionId: session.id, issuedAt: at, expiresAt: at + ACCESS_MILLIS })
    refreshTokens.set(refresh, { sessionId: session.id, issuedAt: at, used: false })
    return {
      access_token: access,
      token_type: "Bearer",
      expires_in: ACCESS_MILLIS / 1000,
      refresh_token: refresh,
      session_expires_at: new Date(session.expiresAt).toISOString(),
      ...subjectOf(session)
    }
  }

  /** The session of an application's own token, whichever kind, with its times. */
  const sessionOf = (appId: string, presented: string) => {
    const access = accessTokens.get(presented)
    const refresh = refreshTokens.get(presented)
    const sessionId = access?.sessionId ?? refresh?.sessionId
    const session = sessionId === undefined ? undefined : sessions.get(sessionId)
    return session?.appId === appId ? { session, access, refresh } : undefined
  }

  /** A call with an Idempotency-Key answers as its first success did (IAM keeps such answers 10 minutes). */
  const once = (appId: string, retry: RetryKey | undefined, call: Effect.Effect<ApplicationTokenResponse, OAuthError>) => {
    const key = retry?.idempotencyKey === undefined ? undefined : `${appId}\n${retry.idempotencyKey}`
    const earlier = key === undefined ? undefined : answered.get(key)
    if (earlier !== undefined) return Effect.succeed(earlier)
    return Effect.tap(call, (answer) => key === undefined ? Effect.void : Effect.sync(() => void answered.set(key, answer)))
  }

  const clientFor = (appId: string): IamApplicationCalls => ({
    appId,
    exchange: (slt, retry) =>
      once(appId, retry, Effect.flatMap(Clock.currentTimeMillis, (at) => {
        const found = slts.get(slt)
        if (found === undefined || found.used) return Effect.fail(invalidGrant("The short-lived token is unknown or was already used."))
        found.used = true
        if (found.appId !== appId) return Effect.fail(invalidGrant("The short-lived token was minted for another application."))
        if (found.expiresAt <= at) return Effect.fail(invalidGrant("The short-lived token has expired."))
        const session: Session = {
          id: token("aps_"),
          appId,
          subject: found.subject,
          orgIds: found.orgIds,
          scopes: found.scopes,
          expiresAt: at + FAMILY_MILLIS,
          ended: false
        }
        if (!live(session, at)) return Effect.fail(invalidGrant("The login's session is no longer live."))
        sessions.set(session.id, session)
        return Effect.succeed(issue(session, at))
      })),
    refresh: (refreshToken, retry) =>
      once(appId, retry, Effect.flatMap(Clock.currentTimeMillis, (at) => {
        const found = refreshTokens.get(refreshToken)
        const session = found === undefined ? undefined : sessions.get(found.sessionId)
        if (found === undefined || session?.appId !== appId) return Effect.fail(invalidGrant("The refresh token is not valid."))
        if (found.used) {
          session.ended = true
          return Effect.fail(invalidGrant("The refresh token was already used; its session has ended."))
        }
        if (!live(session, at)) return Effect.fail(invalidGrant("The session of this refresh token has ended."))
        found.used = true
        return Effect.succeed(issue(session, at))
      })),
    introspect: (presented) =>
      Effect.map(Clock.currentTimeMillis, (at): ApplicationIntrospection => {
        const found = sessionOf(appId, presented)
        if (found === undefined || !live(found.session, at)) return { active: false }
        const { access, refresh, session } = found
        if (access !== undefined && access.expiresAt <= at) return { active: false }
        if (refresh?.used === true) return { active: false }
        return {
          active: true,
          ...subjectOf(session),
          client_id: appId,
          token_type: access === undefined ? "refresh_token" : "Bearer",
          iat: Math.floor((access?.issuedAt ?? refresh?.issuedAt ?? at) / 1000),
          exp: Math.floor((access?.expiresAt ?? session.expiresAt) / 1000)
        }
      }),
    revoke: (presented) =>
      Effect.sync(() => {
        const found = sessionOf(appId, presented)
        if (found !== undefined) found.session.ended = true
      }),
    proveOnBehalfOf: ({ accessToken, audience }) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) => {
        const found = sessionOf(appId, accessToken)
        if (found?.access === undefined || found.access.expiresAt <= at || !live(found.session, at)) {
          return Effect.fail(invalidGrant("The access token is not a live access token of this application."))
        }
        const proof = token("obo_")
        proofs.set(proof, { sessionId: found.session.id, audience, expiresAt: at + PROOF_MILLIS, used: false })
        return Effect.succeed({
          proof,
          expires_in: PROOF_MILLIS / 1000,
          expires_at: new Date(at + PROOF_MILLIS).toISOString(),
          audience,
          sub: found.session.subject.uuid
        })
      }),
    verifyProof: (proof) =>
      Effect.map(Clock.currentTimeMillis, (at) => {
        const found = proofs.get(proof)
        if (found === undefined || found.used) return { active: false }
        found.used = true
        const session = sessions.get(found.sessionId)
        if (found.audience !== appId || found.expiresAt <= at || !live(session, at)) return { active: false }
        return { active: true, ...subjectOf(session), client_id: session.appId, exp: Math.floor(found.expiresAt / 1000) }
      })
  })

  return {
    issueShortLivedToken: (login) =>
      Effect.map(Clock.currentTimeMillis, (at) => {
        const slt = token("slt_")
        slts.set(slt, { ...login, expiresAt: at + SLT_MILLIS, used: false })
        return slt
      }),
    endParentSessions: (subjectUuid) =>
      Effect.sync(() => {
        for (const session of sessions.values()) if (session.subject.uuid === subjectUuid) session.ended = true
      }),
    removeMembership: (subjectUuid, orgId) => Effect.sync(() => void removed.add(`${subjectUuid}\n${orgId}`)),
    clientFor
  }
}

/** IAM in memory: provide with `IamApplicationClient.fake(appId)` (or take `IamApplicationClient.Test`). */
export class FakeIam extends Context.Tag("@platform/iam-app-api/FakeIam")<FakeIam, FakeIamControls>() {
  /** A fresh, empty IAM each time the layer is built. */
  static layer: Layer.Layer<FakeIam> = Layer.sync(this, makeFake)
}
