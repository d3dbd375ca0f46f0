import { SqlClient } from "@effect/sql"
import { Data, Effect, Option, Schema } from "effect"
import type { AuthorizationCodeRow } from "../authorize/AuthorizationCodes.ts"
import { SigninRow } from "../auth/Signin.ts"
import { SigninsRepo } from "../auth/SigninsRepo.ts"

/** Why a redeemed code started no sign-in. */
export class CodeSigninRefused extends Data.TaggedError("CodeSigninRefused")<{
  readonly reason: "access_removed"
}> {}

/** What an app sign-in was granted (the `app_signins` row). */
export interface AppGrant {
  readonly app_id: string
  readonly scope: string
  readonly auth_time: Date
}

const RefreshTokenState = Schema.Struct({
  ...SigninRow.fields,
  token_created_at: Schema.DateFromSelf,
  used_at: Schema.NullOr(Schema.DateFromSelf)
})
const decodeRefreshStates = Schema.decodeUnknown(Schema.Array(RefreshTokenState))

/** App sign-ins: the ones authorization codes start, what they were granted, and the membership they belong to. */
export class AppSigninsRepo extends Effect.Service<AppSigninsRepo>()("accounts/AppSigninsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const signins = yield* SigninsRepo

    /**
     * In one transaction: the app sign-in (900 days), its grant, the
     * membership (made when absent, an imported one claimed), and the code's
     * link to the sign-in. A membership whose access was removed leaves
     * nothing behind.
     */
    const startFromCode = (code: AuthorizationCodeRow, now: Date) =>
      sql.withTransaction(Effect.gen(function*() {
        const started = yield* signins.start({
          accountUuid: code.account_uuid,
          clientId: code.app_id,
          clientLabel: null,
          method: "hosted",
          now
        })
        yield* sql`
          INSERT INTO app_signins (signin_id, app_id, scope, auth_time)
          VALUES (${started.signin.id}, ${code.app_id}, ${code.scope}, ${code.auth_time})
        `
        const scopes = JSON.stringify(code.scope.split(" ").filter((scope) => scope !== ""))
        const membership = yield* sql<{ status: string }>`
          INSERT INTO memberships (app_id, account_uuid, status, scopes, created_at, last_signin_at)
          VALUES (${code.app_id}, ${code.account_uuid}, 'active', ${scopes}::jsonb, ${now}, ${now})
          ON CONFLICT (app_id, account_uuid) DO UPDATE SET
            last_signin_at = EXCLUDED.last_signin_at,
            status = CASE WHEN memberships.status = 'imported' THEN 'active' ELSE memberships.status END
          RETURNING status
        `
        if (membership[0]?.status === "access_removed") return yield* new CodeSigninRefused({ reason: "access_removed" })
        yield* sql`UPDATE authorization_codes SET signin_id = ${started.signin.id} WHERE code_hash = ${code.code_hash}`
        return started
      })).pipe(Effect.catchTag("SqlError", Effect.die))

    /**
     * Records a second use of a code and answers the sign-in it started, as
     * committed now: a use racing the first redemption finds none yet, and the
     * tokens issued after it stand (RFC 6749 §4.1.2 revokes those issued before).
     */
    const markCodeReused = (codeHash: string, now: Date): Effect.Effect<Option.Option<string>> =>
      sql<{ signin_id: string | null }>`
        UPDATE authorization_codes SET reused_at = COALESCE(reused_at, ${now}) WHERE code_hash = ${codeHash}
        RETURNING signin_id
      `.pipe(Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0]?.signin_id)))

    /** A refresh token's sign-in and whether the token was used already (introspection). */
    const refreshTokenState = (tokenHash: string) =>
      sql`
        SELECT s.*, r.created_at AS token_created_at, r.used_at FROM refresh_tokens r JOIN signins s ON s.id = r.signin_id WHERE r.token_hash = ${tokenHash}
      `.pipe(Effect.flatMap(decodeRefreshStates), Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0])))

    return { startFromCode, markCodeReused, refreshTokenState } as const
  })
}) {}
