import { SqlClient } from "@effect/sql"
import { randomToken, sha256Hex } from "@platform/crypto"
import { Duration, Effect, Option, Schema } from "effect"
import type { CookieToSet } from "./FlowCore.ts"
import { SignupAlreadyCompleted, SignupExpired, SignupNotBound } from "./errors.ts"
import { type ContactField, type FlowState, Step } from "./FlowState.ts"
import { rowsDecoder } from "@platform/database"
import { ImportClaims } from "../imports/ImportClaims.ts"
import { ProviderName } from "../providers/ProviderAnswer.ts"

/** The identity a provider sign-up links to its new account, with what the provider offered for the form. */
export interface ProviderSignup {
  readonly provider: ProviderName
  readonly subject: string
  readonly pfpUrl: string | null
  readonly displayName: string | null
}

/** A sign-up session lasts 48 hours (spec 1, Lifetimes). */
export const SIGNUP_LIFETIME = Duration.hours(48)
export const SIGNUP_COOKIE = "sa_signup"

const SignupRow = Schema.Struct({
  id: Schema.String,
  flow_id: Schema.String,
  channel: Schema.Literal("email", "phone"),
  address: Schema.String,
  expires_at: Schema.DateFromSelf,
  completed_at: Schema.NullOr(Schema.DateFromSelf),
  provider: Schema.NullOr(ProviderName),
  provider_subject: Schema.NullOr(Schema.String)
})
export type SignupRow = typeof SignupRow.Type

const decodeRows = rowsDecoder(SignupRow)

/**
 * Addresses proven by a code or an identity provider that no account holds yet, bound to a browser by the `sa_signup` cookie;
 * an address an app imported makes the sign-up finish that import.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class SignupSessions extends Effect.Service<SignupSessions>()("accounts/SignupSessions", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const claims = yield* ImportClaims

    /** A new sign-up session; the cookie value is returned once. */
    const start = (flowId: string, channel: ContactField, address: string, at: Date, provider: ProviderSignup | null = null) =>
      Effect.gen(function*() {
        const id = randomToken("sup_", 16)
        const cookie = randomToken("sas_")
        const expiresAt = new Date(at.getTime() + Duration.toMillis(SIGNUP_LIFETIME))
        yield* sql`
          INSERT INTO signup_sessions (id, cookie_hash, flow_id, channel, address, created_at, expires_at,
                                       provider, provider_subject, provider_pfp_url, provider_display_name)
          VALUES (${id}, ${sha256Hex(cookie)}, ${flowId}, ${channel}, ${address}, ${at}, ${expiresAt},
                  ${provider?.provider ?? null}, ${provider?.subject ?? null}, ${provider?.pfpUrl ?? null},
                  ${provider?.displayName ?? null})
        `.pipe(Effect.orDie)
        return { id, cookie, expiresAt }
      })

    /**
     * Starts a sign-up session for an address the flow proved: the flow's signup step (over `state`)
     * and the sa_signup cookie that binds the sign-up to this browser.
     */
    const enter = (
      flowId: string,
      state: FlowState,
      channel: ContactField,
      destination: string,
      at: Date,
      provider: ProviderSignup | null = null
    ) =>
      Effect.zipWith(start(flowId, channel, destination, at, provider), claims.pendingFor(channel, destination), (signup, pending) => ({
        next: {
          ...state,
          step: Step.signup({
            signup: {
              id: signup.id,
              channel,
              destination,
              expires_at: signup.expiresAt.toISOString(),
              provider: provider?.provider ?? null,
              provider_pfp_url: provider?.pfpUrl ?? null,
              pfp_url: null,
              display_name: provider?.displayName ?? Option.getOrNull(Option.map(pending, (found) => found.display_name)),
              imported: Option.getOrNull(Option.map(pending, (found) => ({
                account_uuid: found.account_uuid,
                app_id: found.app_id,
                name: found.app_name
              })))
            }
          })
        } satisfies FlowState,
        cookies: [{ name: SIGNUP_COOKIE, value: signup.cookie, maxAge: SIGNUP_LIFETIME }] satisfies ReadonlyArray<CookieToSet>
      }))

    const findByCookie = (cookie: string): Effect.Effect<Option.Option<SignupRow>> =>
      sql`
        SELECT id, flow_id, channel, address, expires_at, completed_at, provider, provider_subject FROM signup_sessions
        WHERE cookie_hash = ${sha256Hex(cookie)}
      `.pipe(Effect.orDie, Effect.flatMap(decodeRows), Effect.map((rows) => Option.fromNullable(rows[0])))

    /**
     * The sign-up session `started` (the flow's) when this browser's sa_signup cookie holds it, it made
     * no account yet and its 48 hours have not passed.
     */
    const bound = (
      started: string,
      cookie: string | undefined,
      at: Date
    ): Effect.Effect<SignupRow, SignupNotBound | SignupAlreadyCompleted | SignupExpired> =>
      Effect.gen(function*() {
        const found = cookie === undefined ? Option.none() : yield* findByCookie(cookie)
        if (Option.isNone(found) || found.value.id !== started) {
          return yield* new SignupNotBound({ message: "This sign-up belongs to another browser.", hint: "Verify the address again." })
        }
        if (found.value.completed_at !== null) {
          return yield* new SignupAlreadyCompleted({ message: "This sign-up has made its account already." })
        }
        if (found.value.expires_at.getTime() <= at.getTime()) {
          return yield* new SignupExpired({ message: "This sign-up has expired.", hint: "Verify the address again." })
        }
        return found.value
      })

    /** Marks the session used by its new account; false when it was used already. */
    const complete = (id: string, accountUuid: string, at: Date): Effect.Effect<boolean> =>
      sql`
        UPDATE signup_sessions SET completed_at = ${at}, account_uuid = ${accountUuid}
        WHERE id = ${id} AND completed_at IS NULL
        RETURNING id
      `.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0))

    /** Retention: sign-up sessions 7 days after expiry or use (spec 1, Retention). */
    const sweep = (before: Date): Effect.Effect<number> =>
      sql`
        DELETE FROM signup_sessions WHERE expires_at < ${before} OR completed_at < ${before} RETURNING 1
      `.pipe(Effect.orDie, Effect.map((rows) => rows.length))

    return { start, enter, findByCookie, bound, complete, sweep } as const
  }),
  dependencies: [ImportClaims.Default]
}) {}
