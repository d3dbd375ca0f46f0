import { layer } from "@effect/vitest"
import { IamApplicationClient, type IamApplicationCalls } from "@platform/iam-app-api"
import { Effect, Redacted } from "effect"
import { expect } from "vitest"
import {
  ApplicationTestServices,
  endIamSession,
  leave,
  mintSlt,
  registerApplication,
  signedInMember
} from "./support/applications.ts"
import { iamClient, IamTest, IamUnderTest } from "./support/IamTest.ts"

// Lifetimes (SLT 2 minutes, access 30 minutes, proofs 60 seconds) are in application-session-lifetimes.test.ts.

const services = ApplicationTestServices

/** The exported client of `@platform/iam-app-api`, as the application with this id and secret, against the server under test. */
const clientOf = (appId: string, secret: Redacted.Redacted<string>) =>
  Effect.flatMap(IamUnderTest, ({ url }) =>
    Effect.provide(IamApplicationClient, IamApplicationClient.layer({ baseUrl: url, appId, secret })))

const refusal = <A>(call: Effect.Effect<A, { readonly _tag: string }>) =>
  Effect.map(Effect.flip(call), (error) => ({ tag: error._tag, error: "error" in error ? error.error : undefined }))

/** An application registered with a unique id, and its client. */
const application = (name: string) =>
  Effect.gen(function*() {
    const appId = `${name}-${Math.random().toString(36).slice(2, 8)}`
    const registered = yield* registerApplication(appId)
    return { appId, secret: registered.secret, client: yield* clientOf(appId, registered.secret) }
  })

/** A person signed in to IAM and a member of two organizations, and an SLT minted for `appId` from that session. */
const loginTo = (appId: string) =>
  Effect.gen(function*() {
    const member = yield* signedInMember(`ada${Math.random().toString(36).slice(2, 8)}`, 2)
    const minted = yield* mintSlt(appId, member)
    return { ...member, slt: minted.slt }
  })

const exchanged = (client: IamApplicationCalls) =>
  Effect.gen(function*() {
    const login = yield* loginTo(client.appId)
    return { ...login, tokens: yield* client.exchange(login.slt) }
  })

layer(IamTest(), { excludeTestServices: true })("application sessions over HTTP", (it) => {
  it.effect("an SLT is exchanged once, by the application it was minted for", () =>
    Effect.gen(function*() {
      const mine = yield* application("mail")
      const other = yield* application("files")
      const login = yield* loginTo(mine.appId)

      // This application's id with another application's secret: refused before the SLT is touched.
      const impostor = yield* clientOf(mine.appId, other.secret)
      expect(yield* refusal(impostor.exchange(login.slt))).toEqual({ tag: "OAuthError", error: "invalid_client" })

      const tokens = yield* mine.client.exchange(login.slt)
      expect(tokens).toMatchObject({
        token_type: "Bearer",
        expires_in: 1800,
        sub: login.identity.uuid,
        subject_kind: "carbon",
        username: login.identity.id,
        org_ids: login.orgIds,
        scope: "identity self.profile.read"
      })
      expect(tokens.access_token).toMatch(/^aat_[A-Za-z0-9_-]{43}$/)
      expect(tokens.refresh_token).toMatch(/^art_[A-Za-z0-9_-]{43}$/)
      expect(tokens.session_id).toMatch(/^aps_/)

      expect(yield* refusal(mine.client.exchange(login.slt))).toEqual({ tag: "OAuthError", error: "invalid_grant" })

      // Another application presenting it is refused, and the SLT is spent all the same.
      const second = yield* mintSlt(mine.appId, login)
      expect(yield* refusal(other.client.exchange(second.slt))).toEqual({ tag: "OAuthError", error: "invalid_grant" })
      expect(yield* refusal(mine.client.exchange(second.slt))).toEqual({ tag: "OAuthError", error: "invalid_grant" })
    }).pipe(Effect.provide(services)))

  it.effect("a refresh rotates; presenting a used refresh token is invalid_grant and ends the session", () =>
    Effect.gen(function*() {
      const { client } = yield* application("chat")
      const { tokens } = yield* exchanged(client)
      const rotated = yield* client.refresh(tokens.refresh_token)
      expect(rotated.refresh_token).not.toBe(tokens.refresh_token)
      expect(rotated.access_token).not.toBe(tokens.access_token)
      expect(rotated.session_id).toBe(tokens.session_id)
      expect(yield* client.introspect(rotated.access_token)).toMatchObject({ active: true })

      expect(yield* refusal(client.refresh(tokens.refresh_token))).toEqual({ tag: "OAuthError", error: "invalid_grant" })
      // Terminal: the family is over, its newest tokens with it.
      expect(yield* refusal(client.refresh(rotated.refresh_token))).toEqual({ tag: "OAuthError", error: "invalid_grant" })
      expect(yield* client.introspect(rotated.access_token)).toEqual({ active: false })
    }).pipe(Effect.provide(services)))

  it.effect("an exact retry of a refresh with its Idempotency-Key gets the same answer, and the family goes on", () =>
    Effect.gen(function*() {
      const { client } = yield* application("retry")
      const { tokens } = yield* exchanged(client)
      const first = yield* client.refresh(tokens.refresh_token, { idempotencyKey: "refresh-1" })
      expect(yield* client.refresh(tokens.refresh_token, { idempotencyKey: "refresh-1" })).toEqual(first)
      const next = yield* client.refresh(first.refresh_token, { idempotencyKey: "refresh-2" })
      expect(yield* client.introspect(next.access_token)).toMatchObject({ active: true })
      // Without the key, the same token again is a reuse.
      expect(yield* refusal(client.refresh(first.refresh_token))).toEqual({ tag: "OAuthError", error: "invalid_grant" })
    }).pipe(Effect.provide(services)))

  it.effect("introspection answers the subject while the parent IAM session lives, and inactive once it ends", () =>
    Effect.gen(function*() {
      const mine = yield* application("notes")
      const other = yield* application("maps")
      const { identity, orgIds, pair, tokens } = yield* exchanged(mine.client)
      const { url } = yield* IamUnderTest

      expect(yield* mine.client.introspect(tokens.access_token)).toEqual({
        active: true,
        sub: identity.uuid,
        subject_kind: "carbon",
        username: identity.id,
        org_ids: orgIds,
        scope: "identity self.profile.read",
        session_id: tokens.session_id,
        client_id: mine.appId,
        token_type: "Bearer",
        iat: expect.any(Number),
        exp: expect.any(Number),
        iss: url
      })
      expect(yield* mine.client.introspect(tokens.refresh_token)).toMatchObject({ active: true, token_type: "refresh_token" })
      // Another application's view of the token, a direct IAM bearer and garbage: inactive.
      expect(yield* other.client.introspect(tokens.access_token)).toEqual({ active: false })
      expect(yield* mine.client.introspect(pair.access_token)).toEqual({ active: false })
      expect(yield* mine.client.introspect("aat_garbage")).toEqual({ active: false })
      // The credential check and the token read share one statement on this path: a wrong secret or an unknown
      // application is still invalid_client, and reveals nothing of the token.
      const impostor = yield* clientOf(mine.appId, other.secret)
      expect(yield* refusal(impostor.introspect(tokens.access_token))).toEqual({ tag: "OAuthError", error: "invalid_client" })
      const stranger = yield* clientOf("no-such-application", other.secret)
      expect(yield* refusal(stranger.introspect(tokens.access_token))).toEqual({ tag: "OAuthError", error: "invalid_client" })

      yield* endIamSession(pair.session_id)
      expect(yield* mine.client.introspect(tokens.access_token)).toEqual({ active: false })
      expect(yield* mine.client.introspect(tokens.refresh_token)).toEqual({ active: false })
      expect(yield* refusal(mine.client.refresh(tokens.refresh_token))).toEqual({ tag: "OAuthError", error: "invalid_grant" })
    }).pipe(Effect.provide(services)))

  it.effect("leaving an organization drops it from the session; leaving the last one ends what depends on it", () =>
    Effect.gen(function*() {
      const { client } = yield* application("teams")
      const member = yield* loginTo(client.appId)
      const tokens = yield* client.exchange(member.slt)
      const [first, second] = member.orgIds
      const proofFor = () => client.proveOnBehalfOf({ accessToken: tokens.access_token, audience: client.appId })
      const proof = yield* proofFor()

      yield* leave(member, first!)
      expect(yield* client.introspect(tokens.access_token)).toMatchObject({ active: true, org_ids: [second] })
      const refreshed = yield* client.refresh(tokens.refresh_token)
      expect(refreshed.org_ids).toEqual([second])
      expect(yield* client.verifyProof(proof.proof)).toMatchObject({ active: true, org_ids: [second] })

      const pending = yield* mintSlt(client.appId, member)
      const lastProof = yield* client.proveOnBehalfOf({ accessToken: refreshed.access_token, audience: client.appId })
      yield* leave(member, second!)
      expect(yield* client.introspect(refreshed.access_token)).toEqual({ active: false })
      expect(yield* client.introspect(refreshed.refresh_token)).toEqual({ active: false })
      expect(yield* client.verifyProof(lastProof.proof)).toEqual({ active: false })
      expect(yield* refusal(client.refresh(refreshed.refresh_token))).toEqual({ tag: "OAuthError", error: "invalid_grant" })
      expect(yield* refusal(client.exchange(pending.slt))).toEqual({ tag: "OAuthError", error: "invalid_grant" })
    }).pipe(Effect.provide(services)))

  it.effect("revocation ends the session; another application's token and an unknown one are left alone", () =>
    Effect.gen(function*() {
      const mine = yield* application("docs")
      const other = yield* application("sheets")
      const first = yield* exchanged(mine.client)
      const second = yield* exchanged(mine.client)

      yield* other.client.revoke(first.tokens.access_token)
      yield* mine.client.revoke("art_unknown")
      expect(yield* mine.client.introspect(first.tokens.access_token)).toMatchObject({ active: true })

      yield* mine.client.revoke(first.tokens.refresh_token)
      expect(yield* mine.client.introspect(first.tokens.access_token)).toEqual({ active: false })
      expect(yield* refusal(mine.client.refresh(first.tokens.refresh_token))).toEqual({ tag: "OAuthError", error: "invalid_grant" })

      yield* mine.client.revoke(second.tokens.access_token)
      expect(yield* mine.client.introspect(second.tokens.refresh_token)).toEqual({ active: false })
    }).pipe(Effect.provide(services)))

  it.effect("an on-behalf-of proof is verified once, and by its audience only", () =>
    Effect.gen(function*() {
      const acting = yield* application("agent")
      const audience = yield* application("storage")
      const stranger = yield* application("photos")
      const { identity, orgIds, pair, tokens } = yield* exchanged(acting.client)

      const proof = yield* acting.client.proveOnBehalfOf({ accessToken: tokens.access_token, audience: audience.appId })
      expect(proof).toMatchObject({ expires_in: 60, audience: audience.appId, sub: identity.uuid })
      expect(proof.proof).toMatch(/^obo_/)
      expect(yield* audience.client.verifyProof(proof.proof)).toMatchObject({
        active: true,
        client_id: acting.appId,
        sub: identity.uuid,
        subject_kind: "carbon",
        org_ids: orgIds,
        scope: "identity self.profile.read"
      })
      expect(yield* audience.client.verifyProof(proof.proof)).toEqual({ active: false })

      // Shown to another application first: inactive there, and spent.
      const misdirected = yield* acting.client.proveOnBehalfOf({ accessToken: tokens.access_token, audience: audience.appId })
      expect(yield* stranger.client.verifyProof(misdirected.proof)).toEqual({ active: false })
      expect(yield* audience.client.verifyProof(misdirected.proof)).toEqual({ active: false })

      // Only from the application's own live access token, for a registered audience.
      expect(yield* refusal(acting.client.proveOnBehalfOf({ accessToken: tokens.refresh_token, audience: audience.appId })))
        .toEqual({ tag: "OAuthError", error: "invalid_grant" })
      expect(yield* refusal(stranger.client.proveOnBehalfOf({ accessToken: tokens.access_token, audience: audience.appId })))
        .toEqual({ tag: "OAuthError", error: "invalid_grant" })
      expect(yield* refusal(acting.client.proveOnBehalfOf({ accessToken: tokens.access_token, audience: "nobody-here" })))
        .toEqual({ tag: "OAuthError", error: "invalid_request" })

      // A proof outlives nothing: once the parent IAM session ends, verifying it answers inactive.
      const late = yield* acting.client.proveOnBehalfOf({ accessToken: tokens.access_token, audience: audience.appId })
      yield* endIamSession(pair.session_id)
      expect(yield* audience.client.verifyProof(late.proof)).toEqual({ active: false })
    }).pipe(Effect.provide(services)))

  it.effect("an application access token is no IAM bearer", () =>
    Effect.gen(function*() {
      const { client } = yield* application("bridge")
      const { tokens } = yield* exchanged(client)
      const asBearer = yield* iamClient({ authorization: `Bearer ${tokens.access_token}` })
      expect(yield* Effect.flip(asBearer.sessions.current())).toMatchObject({ _tag: "Unauthenticated", code: "unauthenticated" })
    }).pipe(Effect.provide(services)))

  it.effect("refusals are RFC 6749 bodies, never cached", () =>
    Effect.gen(function*() {
      const { appId, secret } = yield* application("wire")
      const { url } = yield* IamUnderTest
      const post = (authorization: string, body: string, contentType = "application/x-www-form-urlencoded") =>
        Effect.promise(async () => {
          const response = await fetch(`${url}/api/v1/oauth/token`, {
            method: "POST",
            headers: { authorization, "content-type": contentType },
            body
          })
          return { status: response.status, cache: response.headers.get("cache-control"), body: await response.json() }
        })
      const basic = (password: string) => `Basic ${Buffer.from(`${appId}:${password}`).toString("base64")}`
      expect(yield* post(basic("acs_wrong"), "grant_type=refresh_token&refresh_token=x")).toEqual({
        status: 401,
        cache: "no-store",
        body: { error: "invalid_client", error_description: expect.any(String) }
      })
      expect(yield* post(basic(Redacted.value(secret)), "grant_type=password&username=a")).toMatchObject({
        status: 400,
        body: { error: "unsupported_grant_type" }
      })
      expect(yield* post(basic(Redacted.value(secret)), "grant_type=refresh_token")).toMatchObject({
        status: 400,
        body: { error: "invalid_request", error_description: "Parameter refresh_token is missing." }
      })
      // The conventions' own refusals keep the RFC 6749 shape on these routes.
      expect(yield* post(basic(Redacted.value(secret)), "[\"grant_type\"]", "application/json")).toMatchObject({
        status: 400,
        cache: "no-store",
        body: { error: "invalid_request" }
      })
    }).pipe(Effect.provide(services)))
})
