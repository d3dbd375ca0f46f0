import { SqlClient } from "@effect/sql"
import { layer } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { Duration, Effect, Layer, TestClock } from "effect"
import { expect } from "vitest"
import { ApplicationSessions } from "../src/application-sessions/ApplicationSessions.ts"
import { OnBehalfOfProofs } from "../src/application-sessions/OnBehalfOfProofs.ts"
import { Applications } from "../src/applications/Applications.ts"
import { IamConfigOf } from "../src/config.ts"
import { iamMigrations } from "../src/migrations.ts"
import { RetentionStoresLive, sweepExpired } from "../src/retention.ts"
import { ApplicationTestServices, mintSlt, registerApplication, signedInMember } from "./support/applications.ts"
import { iamTestSettings } from "./support/IamTest.ts"

// Spec 2's fixed lifetimes on the application side, on the TestClock. The HTTP behaviour is in application-sessions.test.ts.

const atNow = TestClock.setTime(Date.parse("2026-11-01T12:00:00.000Z"))

const invalidGrant = <A, R>(effect: Effect.Effect<A, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (error) => ("error" in error ? error.error : error._tag))

/** An application, a person signed in to IAM, and `count` SLTs of theirs for it. */
const loginWithSlts = (appId: string, count: number) =>
  Effect.gen(function*() {
    yield* registerApplication(appId)
    const application = yield* (yield* Applications).existing(appId)
    const member = yield* signedInMember(appId.replace(/-/g, ""))
    const slts = yield* Effect.forEach(Array.from({ length: count }), () => mintSlt(appId, member))
    return { application, slts: slts.map((minted) => minted.slt) }
  })

/** Rows of `table` whose `column` is `value`. */
const countOf = (table: string, column: string, value: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly count: number }>`select count(*)::float8 as count from ${sql(table)} where ${sql(column)} = ${value}`.pipe(
      Effect.map((rows) => rows[0]?.count ?? -1),
      Effect.orDie
    ))

layer(
  Layer.mergeAll(
    ApplicationSessions.Default,
    OnBehalfOfProofs.Default,
    ApplicationTestServices,
    RetentionStoresLive
  )
    .pipe(Layer.provideMerge(IamConfigOf(iamTestSettings(4200))), Layer.provideMerge(TestDatabase.layer(iamMigrations)))
)("application credential lifetimes", (it) => {
  it.effect("an SLT is good for 2 minutes", () =>
    Effect.gen(function*() {
      yield* atNow
      const sessions = yield* ApplicationSessions
      const { application, slts: [inTime, late] } = yield* loginWithSlts("slt-expiry", 2)
      yield* TestClock.adjust(Duration.seconds(119))
      expect(yield* sessions.exchange(application, inTime!)).toMatchObject({ token_type: "Bearer" })
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* invalidGrant(sessions.exchange(application, late!))).toBe("invalid_grant")
    }))

  it.effect("an access token lasts 30 minutes; its session refreshes until the 900-day family ends", () =>
    Effect.gen(function*() {
      yield* atNow
      const sessions = yield* ApplicationSessions
      const { application, slts: [slt] } = yield* loginWithSlts("access-expiry", 1)
      const tokens = yield* sessions.exchange(application, slt!)
      expect(tokens.session_expires_at).toBe("2029-04-19T12:00:00.000Z")
      yield* TestClock.adjust(Duration.minutes(30).pipe(Duration.subtract(Duration.seconds(1))))
      expect(yield* sessions.introspect(application.app_id, tokens.access_token)).toMatchObject({ active: true })
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* sessions.introspect(application.app_id, tokens.access_token)).toEqual({ active: false })
      const refreshed = yield* sessions.refresh(application, tokens.refresh_token)
      expect(yield* sessions.introspect(application.app_id, refreshed.access_token)).toMatchObject({ active: true })

      yield* TestClock.adjust(Duration.days(900))
      expect(yield* sessions.introspect(application.app_id, refreshed.refresh_token)).toEqual({ active: false })
      expect(yield* invalidGrant(sessions.refresh(application, refreshed.refresh_token))).toBe("invalid_grant")
    }))

  it.effect("an on-behalf-of proof is good for 60 seconds", () =>
    Effect.gen(function*() {
      yield* atNow
      const sessions = yield* ApplicationSessions
      const proofs = yield* OnBehalfOfProofs
      const { application, slts: [slt] } = yield* loginWithSlts("obo-expiry", 1)
      yield* registerApplication("obo-audience")
      const tokens = yield* sessions.exchange(application, slt!)
      const inTime = yield* proofs.prove(application.app_id, tokens.access_token, "obo-audience")
      const late = yield* proofs.prove(application.app_id, tokens.access_token, "obo-audience")
      expect(inTime.expires_at).toBe("2026-11-01T12:01:00.000Z")
      yield* TestClock.adjust(Duration.seconds(59))
      expect(yield* proofs.verify("obo-audience", inTime.proof)).toMatchObject({ active: true, client_id: "obo-expiry" })
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* proofs.verify("obo-audience", late.proof)).toEqual({ active: false })
    }))

  it.effect("SLTs, proofs and access tokens are deleted a day after they expire; the session refreshes on", () =>
    Effect.gen(function*() {
      yield* atNow
      const sessions = yield* ApplicationSessions
      const { application, slts: [slt] } = yield* loginWithSlts("swept", 2)
      yield* registerApplication("swept-audience")
      const tokens = yield* sessions.exchange(application, slt!)
      yield* (yield* OnBehalfOfProofs).prove(application.app_id, tokens.access_token, "swept-audience")
      const counts = Effect.all([
        countOf("application_short_lived_tokens", "app_id", "swept"),
        countOf("on_behalf_of_proofs", "audience", "swept-audience"),
        countOf("application_access_tokens", "session_id", tokens.session_id)
      ])
      expect(yield* counts).toEqual([2, 1, 1])

      // A day after the access token's 30 minutes: the SLTs (2 minutes) and the proof (60 seconds) are gone, the token not yet.
      yield* TestClock.adjust(Duration.sum(Duration.minutes(30), Duration.days(1)))
      yield* sweepExpired
      expect(yield* counts).toEqual([0, 0, 1])
      yield* TestClock.adjust(Duration.millis(1))
      yield* sweepExpired
      expect(yield* counts).toEqual([0, 0, 0])
      expect(yield* sessions.refresh(application, tokens.refresh_token)).toMatchObject({ session_id: tokens.session_id })
    }))
})
