import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Schema } from "effect"

export const Consent = Schema.Struct({
  app_id: Schema.String,
  scopes: Schema.Array(Schema.String),
  scope_version: Schema.Number
})
export type Consent = typeof Consent.Type

const consents = rowsDecoder(Consent)

/** What an identity allowed each application, at which scope_version. */
export class ConsentsRepo extends Effect.Service<ConsentsRepo>()("iam/ConsentsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      /** The identity's consents to these applications (none for one it never consented to). */
      of: (identityUuid: string, appIds: ReadonlyArray<string>) =>
        appIds.length === 0 ? Effect.succeed([]) : sql`
          select app_id, scopes, scope_version from app_consents
          where identity_uuid = ${identityUuid} and app_id in ${sql.in(appIds)}
        `.pipe(Effect.flatMap(consents), Effect.orDie),
      /** Records a consent, replacing the identity's earlier one to that application (a narrower one narrows it). */
      record: (consent: { readonly identityUuid: string; readonly appId: string; readonly scopes: ReadonlyArray<string>; readonly scopeVersion: number; readonly at: Date }) =>
        sql`
          insert into app_consents (identity_uuid, app_id, scopes, scope_version, consented_at)
          values (${consent.identityUuid}, ${consent.appId}, ${JSON.stringify(consent.scopes)}::jsonb, ${consent.scopeVersion}, ${consent.at})
          on conflict (identity_uuid, app_id) do update
            set scopes = excluded.scopes, scope_version = excluded.scope_version, consented_at = excluded.consented_at
        `.pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}
