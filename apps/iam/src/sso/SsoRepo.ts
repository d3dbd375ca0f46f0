import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import type { SsoConnectionStatus } from "./Sso.ts"

const EntitlementRow = Schema.Struct({
  organization_id: Schema.String,
  max_connections: Schema.Number,
  granted_by: Schema.String,
  granted_at: Schema.DateFromSelf
})
export type EntitlementRow = typeof EntitlementRow.Type

const SetupLinkRow = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  expires_at: Schema.DateFromSelf,
  used_at: Schema.NullOr(Schema.DateFromSelf)
})
export type SetupLinkRow = typeof SetupLinkRow.Type

const ConnectionRow = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  issuer: Schema.String,
  client_id: Schema.String,
  client_secret: Schema.String,
  webhook_secret: Schema.String,
  status: Schema.Literal("pending", "active", "inactive"),
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
})
export type ConnectionRow = typeof ConnectionRow.Type

const AttemptRow = Schema.Struct({
  connection_id: Schema.String,
  nonce: Schema.String,
  code_verifier: Schema.String,
  return_to: Schema.String,
  expires_at: Schema.DateFromSelf,
  used_at: Schema.NullOr(Schema.DateFromSelf)
})
export type AttemptRow = typeof AttemptRow.Type

const decodeEntitlements = rowsDecoder(EntitlementRow)
const decodeLinks = rowsDecoder(SetupLinkRow)
const decodeConnections = rowsDecoder(ConnectionRow)
const decodeAttempts = rowsDecoder(AttemptRow)
const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** The SSO tables. Database failures are defects. */
export class SsoRepo extends Effect.Service<SsoRepo>()("iam/SsoRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const connectionColumns = sql`id, organization_id, issuer, client_id, client_secret, webhook_secret, status, created_at, updated_at`

    return {
      entitlement: (organizationId: string) =>
        sql`select * from sso_entitlements where organization_id = ${organizationId}`.pipe(
          Effect.flatMap(decodeEntitlements), Effect.map(first), Effect.orDie),
      putEntitlement: (row: EntitlementRow) =>
        sql`
          insert into sso_entitlements (organization_id, max_connections, granted_by, granted_at)
          values (${row.organization_id}, ${row.max_connections}, ${row.granted_by}, ${row.granted_at})
          on conflict (organization_id) do update set
            max_connections = excluded.max_connections, granted_by = excluded.granted_by, granted_at = excluded.granted_at
        `.pipe(Effect.asVoid, Effect.orDie),
      removeEntitlement: (organizationId: string) =>
        sql`delete from sso_entitlements where organization_id = ${organizationId} returning organization_id`.pipe(
          Effect.map((rows) => rows.length > 0), Effect.orDie),

      insertSetupLink: (link: { id: string; organizationId: string; digest: string; createdBy: string; at: Date; expiresAt: Date }) =>
        sql`
          insert into sso_setup_links (id, organization_id, token_digest, created_by, created_at, expires_at)
          values (${link.id}, ${link.organizationId}, ${link.digest}, ${link.createdBy}, ${link.at}, ${link.expiresAt})
        `.pipe(Effect.asVoid, Effect.orDie),
      /** The link a token digest names, locked for the caller's transaction. */
      lockSetupLink: (digest: string) =>
        sql`select id, organization_id, expires_at, used_at from sso_setup_links where token_digest = ${digest} for update`.pipe(
          Effect.flatMap(decodeLinks), Effect.map(first), Effect.orDie),
      useSetupLink: (id: string, at: Date) =>
        sql`update sso_setup_links set used_at = ${at} where id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      /** Open links of an organization end now (the configuration was disabled); how many. */
      closeSetupLinks: (organizationId: string, at: Date) =>
        sql`
          update sso_setup_links set used_at = ${at}
          where organization_id = ${organizationId} and used_at is null and expires_at > ${at} returning id
        `.pipe(Effect.map((rows) => rows.length), Effect.orDie),

      insertConnection: (row: Omit<ConnectionRow, "updated_at"> & { readonly setup_link_id: string }) =>
        sql`
          insert into sso_connections
            (id, organization_id, issuer, client_id, client_secret, webhook_secret, status, setup_link_id, created_at, updated_at)
          values (${row.id}, ${row.organization_id}, ${row.issuer}, ${row.client_id}, ${row.client_secret}, ${row.webhook_secret},
            ${row.status}, ${row.setup_link_id}, ${row.created_at}, ${row.created_at})
        `.pipe(Effect.asVoid, Effect.orDie),
      connection: (id: string) =>
        sql`select ${connectionColumns} from sso_connections where id = ${id}`.pipe(
          Effect.flatMap(decodeConnections), Effect.map(first), Effect.orDie),
      connectionsOf: (organizationId: string) =>
        sql`select ${connectionColumns} from sso_connections where organization_id = ${organizationId} order by created_at, id`.pipe(
          Effect.flatMap(decodeConnections), Effect.orDie),
      setStatus: (id: string, status: SsoConnectionStatus, at: Date) =>
        sql`update sso_connections set status = ${status}, updated_at = ${at} where id = ${id}`.pipe(Effect.asVoid, Effect.orDie),

      insertAttempt: (stateDigest: string, row: Omit<AttemptRow, "used_at">) =>
        sql`
          insert into sso_login_attempts (state_digest, connection_id, nonce, code_verifier, return_to, expires_at)
          values (${stateDigest}, ${row.connection_id}, ${row.nonce}, ${row.code_verifier}, ${row.return_to}, ${row.expires_at})
        `.pipe(Effect.asVoid, Effect.orDie),
      /** Spends a round trip in one statement: answers it when it was unspent and in time. */
      spendAttempt: (stateDigest: string, at: Date) =>
        sql`
          update sso_login_attempts set used_at = ${at}
          where state_digest = ${stateDigest} and used_at is null and expires_at > ${at}
          returning connection_id, nonce, code_verifier, return_to, expires_at, used_at
        `.pipe(Effect.flatMap(decodeAttempts), Effect.map(first), Effect.orDie),

      /** Retention: round trips, and setup links never used, past the cutoff (a used link stays with its connection). */
      deleteExpiredBefore: (cutoff: Date) =>
        Effect.zipRight(
          sql`delete from sso_login_attempts where expires_at < ${cutoff}`,
          sql`delete from sso_setup_links where expires_at < ${cutoff} and used_at is null`
        ).pipe(Effect.asVoid, Effect.orDie),

      recordSession: (row: { sessionId: string; connectionId: string; identityUuid: string; subject: string; email: string }) =>
        sql`
          insert into sso_sessions (session_id, connection_id, identity_uuid, subject, email)
          values (${row.sessionId}, ${row.connectionId}, ${row.identityUuid}, ${row.subject}, ${row.email})
        `.pipe(Effect.asVoid, Effect.orDie),
      /** The open IAM sessions a connection opened for a provider subject or email. */
      openSessionsOf: (connectionId: string, who: { readonly subject?: string | undefined; readonly email?: string | undefined }) =>
        sql<{ readonly session_id: string }>`
          select s.session_id from sso_sessions s join iam_sessions i on i.id = s.session_id
          where s.connection_id = ${connectionId} and i.ended_at is null
            and (s.subject = ${who.subject ?? null} or s.email = ${who.email ?? null})
        `.pipe(Effect.map((rows) => rows.map((row) => row.session_id)), Effect.orDie)
    }
  })
}) {}
