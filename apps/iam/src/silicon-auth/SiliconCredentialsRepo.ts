import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"

/** The Silicon tokens' keyed digests. */
export class SiliconCredentialsRepo extends Effect.Service<SiliconCredentialsRepo>()("iam/SiliconCredentialsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      /** The Silicon's token digest, replacing any earlier one. */
      put: (siliconUuid: string, digest: string, at: Date) =>
        sql`
          insert into silicon_credentials (silicon_uuid, token_digest, created_at, rotated_at)
          values (${siliconUuid}, ${digest}, ${at}, ${at})
          on conflict (silicon_uuid) do update set token_digest = excluded.token_digest, rotated_at = excluded.rotated_at
        `.pipe(Effect.asVoid, Effect.orDie),
      remove: (siliconUuid: string) =>
        sql`delete from silicon_credentials where silicon_uuid = ${siliconUuid}`.pipe(Effect.asVoid, Effect.orDie),
      digestOf: (siliconUuid: string) =>
        sql<{ readonly token_digest: string }>`
          select token_digest from silicon_credentials where silicon_uuid = ${siliconUuid}
        `.pipe(Effect.map((rows) => Option.fromNullable(rows[0]?.token_digest)), Effect.orDie)
    }
  })
}) {}
