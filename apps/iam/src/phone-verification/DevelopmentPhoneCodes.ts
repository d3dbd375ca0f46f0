import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** SQL of the development phone provider's pending codes. */
export class DevelopmentPhoneCodes extends Effect.Service<DevelopmentPhoneCodes>()("iam/DevelopmentPhoneCodes", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      /** The phone's pending code, in place of any earlier one. */
      put: (phone: string, codeDigest: string, expiresAt: Date) =>
        sql`
          insert into development_phone_codes (phone, code_digest, expires_at)
          values (${phone}, ${codeDigest}, ${expiresAt})
          on conflict (phone) do update set code_digest = excluded.code_digest, expires_at = excluded.expires_at
        `.pipe(Effect.asVoid, Effect.orDie),
      /** Uses up the phone's pending code when it has this digest and is unexpired, in one statement; false otherwise. */
      consume: (phone: string, codeDigest: string, at: Date) =>
        sql`
          delete from development_phone_codes
          where phone = ${phone} and code_digest = ${codeDigest} and expires_at > ${at}
          returning phone
        `.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
      /** Retention: codes expired before `cutoff`. */
      deleteExpiredBefore: (cutoff: Date) =>
        sql`delete from development_phone_codes where expires_at < ${cutoff}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}
