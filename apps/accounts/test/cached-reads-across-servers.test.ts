import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { ServiceUrl } from "@platform/testkit"
import { Context, Effect, ExecutionStrategy, Layer, Option, Scope } from "effect"
import { accountsMigrations } from "../src/migrations.ts"
import { accountByUuid } from "../src/accounts/AccountsRepo.ts"
import { AppAccountsRepo, appSigninViewOf } from "../src/oauth/AppAccountsRepo.ts"
import { signinById } from "../src/oauth/SigninsRepo.ts"
import { siliconByUuid } from "../src/silicons/SiliconsRepo.ts"
import { PROOF_VIEW_CHANNEL } from "../src/proofs/proofViewChannel.ts"
import { verifiedProofOf } from "../src/proofs/ProofsRepo.ts"
import { SIGNIN_VIEW_CHANNEL } from "../src/oauth/signinViewChannel.ts"
import { accountsServerOn, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { appTokens } from "./support/appTokens.ts"
import { callWithBearer } from "./support/bearer.ts"
import { createCarbon } from "./support/carbons.ts"
import { appBasic, memberApp } from "./support/events.ts"
import { fetchAnswer } from "./support/http.ts"
import { basicOf, issued, jsonCall, type TestApp } from "./support/proofs.ts"
import { signInDirectly } from "./support/signIn.ts"

type Database = Layer.Layer<SqlClient.SqlClient>

/**
 * An accounts server on `database` with a pool (and a change listener) of its own, as another process
 * has; given `publicUrl`, it serves under that name (as the workers behind one address do) and the
 * test reaches it at its own port.
 */
const startServer = (database: Database, publicUrl?: string) =>
  Effect.gen(function*() {
    const scope = yield* Scope.fork(yield* Effect.scope, ExecutionStrategy.sequential)
    const server = yield* Layer.buildWithScope(accountsServerOn(database, publicUrl === undefined ? {} : { publicUrl }), scope)
    const running = Context.get(server, AccountsUnderTest)
    return Context.add(server, AccountsUnderTest, { ...running, url: Context.get(server, ServiceUrl) })
  })

type Server = Effect.Effect.Success<ReturnType<typeof startServer>>

/** Two servers on one fresh database, under one public name (as workers behind one address). */
const twoServers = Effect.gen(function*() {
  const database = yield* TestDatabase.sharedByProcesses(accountsMigrations)
  const one = yield* startServer(database)
  return [one, yield* startServer(database, Context.get(one, AccountsUnderTest).url)] as const
})

const on = <A, E, R>(server: Server, effect: Effect.Effect<A, E, R>) => Effect.provide(effect, server)

const userinfo = (server: Server, accessToken: string) => on(server, callWithBearer("GET", "/v1/userinfo", accessToken))

const introspect = (server: Server, app: { readonly appId: string; readonly secret: string }, token: string) =>
  Effect.promise(() =>
    fetchAnswer(`${Context.get(server, AccountsUnderTest).url}/v1/oauth/introspect`, {
      method: "POST",
      headers: { ...appBasic(app), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }).toString()
    })
  )

describe("reads cached per process, across two servers on one database", () => {
  it.scopedLive("userinfo and introspection on one server answer at once what the other has just committed: a new name, a sign-out, a removed access", () =>
    Effect.gen(function*() {
      const [one, two] = yield* twoServers
      const carbon = yield* on(one, createCarbon({ displayName: "Ada" }))
      const { accessToken: accountToken } = yield* on(one, signInDirectly(carbon.uuid))
      const app = yield* on(one, memberApp(carbon.uuid))

      // Round after round, so that a view remembered by the second server would show.
      for (const name of ["Ada L.", "Ada Lovelace", "A. Lovelace"]) {
        const tokens = yield* on(one, appTokens(app, carbon.uuid))
        expect((yield* userinfo(two, tokens.accessToken)).status).toBe(200)
        expect((yield* introspect(two, app, tokens.accessToken)).body.active).toBe(true)

        expect((yield* on(one, callWithBearer("PATCH", "/v1/me", accountToken, { display_name: name }))).status).toBe(200)
        expect((yield* userinfo(two, tokens.accessToken)).body.name).toBe(name)

        expect((yield* on(one, callWithBearer("POST", `/v1/me/apps/${app.appId}/sign-out`, accountToken))).status).toBe(200)
        const signedOut = yield* userinfo(two, tokens.accessToken)
        expect(signedOut.status).toBe(401)
        expect(signedOut.body.error.code).toBe("token_revoked")
        expect((yield* introspect(two, app, tokens.accessToken)).body).toEqual({ active: false })
      }

      const tokens = yield* on(one, appTokens(app, carbon.uuid))
      expect((yield* userinfo(two, tokens.accessToken)).status).toBe(200)
      expect((yield* on(one, callWithBearer("DELETE", `/v1/me/apps/${app.appId}`, accountToken))).status).toBe(204)
      expect((yield* userinfo(two, tokens.accessToken)).body.error.code).toBe("token_revoked")
    }), { timeout: 60_000 })

  it.scopedLive("GET /v1/me on one server answers at once what the other has just committed: a new name, then the sign-in revoked", () =>
    Effect.gen(function*() {
      const [one, two] = yield* twoServers
      const carbon = yield* on(one, createCarbon({ displayName: "Grace" }))
      const me = (server: Server, token: string) => on(server, callWithBearer("GET", "/v1/me", token))

      for (const name of ["Grace H.", "Grace Hopper"]) {
        const { accessToken, signinId } = yield* on(one, signInDirectly(carbon.uuid))
        const { accessToken: otherToken } = yield* on(one, signInDirectly(carbon.uuid))
        expect((yield* me(two, accessToken)).status).toBe(200)
        expect((yield* on(one, callWithBearer("PATCH", "/v1/me", otherToken, { display_name: name }))).status).toBe(200)
        expect((yield* me(two, accessToken)).body.display_name).toBe(name)
        expect((yield* on(one, callWithBearer("DELETE", `/v1/me/sessions/${signinId}`, otherToken))).status).toBe(204)
        const revoked = yield* me(two, accessToken)
        expect(revoked.status).toBe(401)
        expect(revoked.body.error.code).toBe("token_revoked")
      }
    }), { timeout: 60_000 })

  it.scopedLive("POST /v1/proofs/verify on one server answers at once what the other has just committed: a revocation, a sign-out", () =>
    Effect.gen(function*() {
      const [one, two] = yield* twoServers
      const verify = (receiver: TestApp, proofToken: string) =>
        on(two, jsonCall("POST", "/v1/proofs/verify", basicOf(receiver), { proof_token: proofToken }))

      const revoked = yield* on(one, issued())
      expect((yield* verify(revoked.receiver, revoked.proof.body.proof_token)).body.valid).toBe(true)
      const revocation = yield* on(one, jsonCall("POST", "/v1/proofs/revoke", basicOf(revoked.issuer), { proof_id: revoked.proof.body.proof_id }))
      expect(revocation.status).toBeLessThan(300)
      expect((yield* verify(revoked.receiver, revoked.proof.body.proof_token)).body).toEqual({ valid: false, expires_at: null })

      const signedOut = yield* on(one, issued())
      expect((yield* verify(signedOut.receiver, signedOut.proof.body.proof_token)).body.valid).toBe(true)
      const { accessToken: accountToken } = yield* on(one, signInDirectly(signedOut.carbon.uuid))
      const signOut = yield* on(one, callWithBearer("POST", `/v1/me/apps/${signedOut.issuer.appId}/sign-out`, accountToken))
      expect(signOut.status).toBe(200)
      expect((yield* verify(signedOut.receiver, signedOut.proof.body.proof_token)).body).toEqual({ valid: false, expires_at: null })
    }), { timeout: 60_000 })

  it.scopedLive("a sign-in looked up before it exists is found once another server creates it (an absent sign-in is never kept)", () =>
    Effect.gen(function*() {
      const [one, two] = yield* twoServers
      const carbon = yield* on(one, createCarbon())
      const app = yield* on(one, memberApp(carbon.uuid))
      const views = Context.get(yield* Layer.build(AppAccountsRepo.Default.pipe(Layer.provide(Layer.succeedContext(two)))), AppAccountsRepo)
      expect(Option.isNone(yield* views.findBySignin("sgn_made_later"))).toBe(true)
      const sql = Context.get(one, SqlClient.SqlClient)
      yield* sql.withTransaction(Effect.zipRight(
        sql`
          INSERT INTO signins (id, account_uuid, client_id, client_label, method, created_at, expires_at, last_used_at)
          VALUES ('sgn_made_later', ${carbon.uuid}, ${app.appId}, NULL, 'hosted', now(), now() + interval '1 day', now())
        `,
        sql`INSERT INTO app_signins (signin_id, app_id, scope, auth_time) VALUES ('sgn_made_later', ${app.appId}, 'openid', now())`
      ))
      const found = yield* views.findBySignin("sgn_made_later")
      expect(Option.map(found, (view) => [view.uuid, view.app_id])).toEqual(Option.some([carbon.uuid, app.appId]))
    }))

  it.scopedLive("every table read by a cache announces its changes on that cache's channel; a last-used time alone is no change", () =>
    Effect.gen(function*() {
      const sql = Context.get(yield* Layer.build(TestDatabase.layer(accountsMigrations)), SqlClient.SqlClient)
      const uuid = "00000000-0000-4000-8000-000000000000"
      const cachedReads = [
        { channel: SIGNIN_VIEW_CHANNEL, statement: appSigninViewOf(sql, "sig_any") },
        { channel: SIGNIN_VIEW_CHANNEL, statement: signinById(sql, "sig_any") },
        { channel: SIGNIN_VIEW_CHANNEL, statement: accountByUuid(sql, uuid) },
        { channel: SIGNIN_VIEW_CHANNEL, statement: siliconByUuid(sql, uuid) },
        { channel: PROOF_VIEW_CHANNEL, statement: verifiedProofOf(sql, "hash", new Date()) }
      ]
      const tablesOf = (plan: unknown): ReadonlyArray<string> => {
        if (Array.isArray(plan)) return plan.flatMap(tablesOf)
        if (typeof plan !== "object" || plan === null) return []
        return Object.entries(plan).flatMap(([key, value]) =>
          key === "Relation Name" && typeof value === "string" ? [value] : tablesOf(value)
        )
      }
      for (const { channel, statement } of cachedReads) {
        const [text, params] = statement.compile()
        const read = new Set(tablesOf(yield* sql.unsafe(`EXPLAIN (FORMAT JSON) ${text}`, params)))
        // Inserts and deletes, updates, truncates: three triggers per table.
        const announcing = yield* sql<{ table_name: string }>`
          SELECT c.relname AS table_name FROM pg_class c
          WHERE (SELECT count(*) FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname IN (
            c.relname || '_notify_' || ${channel}, c.relname || '_update_notify_' || ${channel}, c.relname || '_truncate_notify_' || ${channel}
          )) = 3
        `
        expect(read.size).toBeGreaterThan(0)
        expect({ channel, text, unannounced: [...read].filter((table) => !announcing.some((row) => row.table_name === table)) })
          .toEqual({ channel, text, unannounced: [] })
      }
      // The update triggers of sign-ins and memberships list the columns whose change counts: every column
      // but the last-used times, new ones included.
      for (const channel of [SIGNIN_VIEW_CHANNEL, PROOF_VIEW_CHANNEL]) {
        for (const [table, ignored] of [["signins", "last_used_at"], ["memberships", "last_signin_at"]] as const) {
          const unannounced = yield* sql<{ column_name: string }>`
            SELECT a.attname AS column_name FROM pg_attribute a
            JOIN pg_trigger t ON t.tgrelid = a.attrelid AND t.tgname = ${`${table}_update_notify_${channel}`}
            WHERE a.attrelid = ${table}::regclass AND a.attnum > 0 AND NOT a.attisdropped AND NOT (a.attnum = ANY (t.tgattr))
          `
          expect(unannounced.map((row) => row.column_name)).toEqual([ignored])
        }
      }
    }))
})
