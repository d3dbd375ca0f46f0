import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { ShortLivedTokens } from "../../src/application-sessions/ShortLivedTokens.ts"
import { Applications } from "../../src/applications/Applications.ts"
import type { RegistrationRequest } from "../../src/applications/registration.ts"
import type { Identity } from "../../src/identities/Identity.ts"
import { IamSessions } from "../../src/sessions/IamSessions.ts"

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

/** What the login handoff would mint after approval: an SLT of `appId` for this IAM session. */
export const mintSlt = (
  appId: string,
  login: { readonly identity: Identity; readonly sessionId: string },
  options: { readonly orgIds?: ReadonlyArray<string>; readonly scopes?: ReadonlyArray<string> } = {}
) =>
  Effect.flatMap(ShortLivedTokens, (tokens) =>
    tokens.mint({
      identityUuid: login.identity.uuid,
      parentSessionId: login.sessionId,
      appId,
      orgIds: options.orgIds ?? ["org_test"],
      scopes: options.scopes ?? ["identity", "self.profile.read"],
      requestId: `req_${randomUUID()}`
    }))

/** Ends an IAM session as a logout would. */
export const endIamSession = (sessionId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`update iam_sessions set ended_at = now(), end_reason = 'logout' where id = ${sessionId}`.pipe(Effect.orDie, Effect.asVoid))
