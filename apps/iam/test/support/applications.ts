import { SqlClient } from "@effect/sql"
import { now } from "@platform/service"
import { Effect, Layer, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { ShortLivedTokens } from "../../src/application-sessions/ShortLivedTokens.ts"
import { Applications } from "../../src/applications/Applications.ts"
import type { RegistrationRequest } from "../../src/applications/registration.ts"
import type { AuthenticatedIdentity } from "../../src/auth/CurrentIdentity.ts"
import type { Identity } from "../../src/identities/Identity.ts"
import { Members } from "../../src/organizations/Members.ts"
import { MembersRepo } from "../../src/organizations/MembersRepo.ts"
import { Organizations } from "../../src/organizations/Organizations.ts"
import { IamSessions } from "../../src/sessions/IamSessions.ts"

/** The services these helpers use, over the test's database and settings. */
export const ApplicationTestServices = Layer.mergeAll(
  Applications.Default,
  ShortLivedTokens.Default,
  IamSessions.Default,
  Organizations.Default,
  MembersRepo.Default,
  Members.Default
)

/** A Carbon or Silicon IAM has seen, with a fresh uuid. */
export const someIdentity = (handle: string, kind: Identity["kind"] = "carbon"): Identity => ({
  uuid: randomUUID(),
  id: `${kind === "carbon" ? "c" : "si"}:${handle}`,
  kind,
  display_name: handle,
  status: "active"
})

/** Registers an application (defaults: one https callback, default scopes, no owner); answers its id and secret. */
export const registerApplication = (appId: string, request: Partial<RegistrationRequest> = {}) =>
  Effect.gen(function*() {
    const registered = yield* (yield* Applications).register({
      appId,
      name: `Application ${appId}`,
      callbackUrls: [`https://${appId}.example.test/callback`],
      scopes: [],
      webhookScope: [],
      consentRequired: false,
      ownerUuid: null,
      organizationId: null,
      ...request
    })
    return { ...registered, appId, secret: Redacted.make(registered.client_secret) }
  })

/** A person (or agent) signed in to IAM: their identity and the IAM session's credential pair. */
export const signedIn = (identity: Identity) => Effect.flatMap(IamSessions, (sessions) => sessions.open(identity, "code"))

const actorOf = (identity: Identity, sessionId: string): AuthenticatedIdentity => ({
  uuid: identity.uuid,
  id: identity.id,
  kind: identity.kind,
  sessionId
})

/** A person signed in to IAM (with a fresh uuid), a member of `count` organizations that others own. */
export const signedInMember = (handle: string, count = 1) =>
  Effect.gen(function*() {
    const identity = someIdentity(handle)
    const pair = yield* signedIn(identity)
    const orgIds = yield* Effect.forEach(Array.from({ length: count }, (_, index) => index), (index) =>
      Effect.gen(function*() {
        const owner = someIdentity(`${handle}owner${index}`)
        const ownerPair = yield* signedIn(owner)
        const created = yield* (yield* Organizations).create(actorOf(owner, ownerPair.session_id), { name: `${handle} ${index}` })
        yield* (yield* MembersRepo).add({
          organizationId: created.organization.id,
          identityUuid: identity.uuid,
          role: "member",
          addedBy: owner.uuid,
          at: yield* now
        })
        return created.organization.id
      }))
    return { identity, pair, sessionId: pair.session_id, orgIds }
  })

/** The person leaves the organization (their membership is removed). */
export const leave = (member: { readonly identity: Identity; readonly sessionId: string }, orgId: string) =>
  Effect.flatMap(Members, (members) => members.remove(actorOf(member.identity, member.sessionId), orgId, member.identity.uuid))

/** What the login handoff would mint after approval: an SLT of `appId` for this IAM session and its organizations. */
export const mintSlt = (
  appId: string,
  login: { readonly identity: Identity; readonly sessionId: string; readonly orgIds: ReadonlyArray<string> },
  options: { readonly scopes?: ReadonlyArray<string> } = {}
) =>
  Effect.flatMap(ShortLivedTokens, (tokens) =>
    tokens.mint({
      identityUuid: login.identity.uuid,
      parentSessionId: login.sessionId,
      appId,
      orgIds: login.orgIds,
      scopes: options.scopes ?? ["identity", "self.profile.read"],
      requestId: `req_${randomUUID()}`
    }))

/** Ends an IAM session as a logout would. */
export const endIamSession = (sessionId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`update iam_sessions set ended_at = now(), end_reason = 'logout' where id = ${sessionId}`.pipe(Effect.orDie, Effect.asVoid))
