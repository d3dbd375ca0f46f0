import { SqlClient } from "@effect/sql"
import { columnsOf, rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"

export const InviteRow = Schema.Struct({
  id: Schema.String,
  app_id: Schema.String,
  app_name: Schema.String,
  invitee_uuid: Schema.NullOr(Schema.String),
  invitee_id: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  status: Schema.Literal("pending", "accepted", "declined", "cancelled", "expired"),
  invited_by_uuid: Schema.String,
  invited_by_id: Schema.NullOr(Schema.String),
  invited_by_name: Schema.String,
  created_at: Schema.DateFromSelf,
  expires_at: Schema.DateFromSelf,
  decided_at: Schema.NullOr(Schema.DateFromSelf)
})
export type InviteRow = typeof InviteRow.Type
const decodeInvites = rowsDecoder(InviteRow)
const COLUMNS = columnsOf(InviteRow.fields, "i").replace("i.app_name", "a.name as app_name")
const FROM = "app_invites i join apps a on a.app_id = i.app_id"

export interface NewInvite {
  readonly id: string
  readonly appId: string
  readonly invitee: { readonly uuid: string; readonly id: string | null } | { readonly email: string }
  readonly by: { readonly uuid: string; readonly id: string | null; readonly name: string }
  readonly at: Date
  readonly expiresAt: Date
}

/** `app_invites`, each read with its app's name. */
export class InvitesRepo extends Effect.Service<InvitesRepo>()("registry/InvitesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = (where: string, params: ReadonlyArray<unknown>, suffix = "") =>
      sql.unsafe(`select ${COLUMNS} from ${FROM} where ${where} ${suffix}`, params as Array<unknown> as never).pipe(
        Effect.flatMap(decodeInvites),
        Effect.orDie
      )
    const one = (rows: ReadonlyArray<InviteRow>) => Option.fromNullable(rows[0])

    return {
      insert: (invite: NewInvite) =>
        sql`
          insert into app_invites (id, app_id, invitee_uuid, invitee_id, email, status, invited_by_uuid, invited_by_id,
            invited_by_name, created_at, expires_at)
          values (${invite.id}, ${invite.appId}, ${"uuid" in invite.invitee ? invite.invitee.uuid : null},
            ${"uuid" in invite.invitee ? invite.invitee.id : null}, ${"email" in invite.invitee ? invite.invitee.email : null},
            'pending', ${invite.by.uuid}, ${invite.by.id}, ${invite.by.name}, ${invite.at}, ${invite.expiresAt})
        `.pipe(Effect.asVoid, Effect.orDie),
      /** Marks the app's pending invitations past their expiry as expired (before inviting the same person again). */
      expireStale: (appId: string, at: Date) =>
        sql`update app_invites set status = 'expired' where app_id = ${appId} and status = 'pending' and expires_at <= ${at}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      pendingTo: (appId: string, invitee: { readonly uuid: string } | { readonly email: string }) =>
        Effect.map(
          "uuid" in invitee
            ? select("i.app_id = $1 and i.status = 'pending' and i.invitee_uuid = $2", [appId, invitee.uuid])
            : select("i.app_id = $1 and i.status = 'pending' and i.email = $2", [appId, invitee.email]),
          one
        ),
      find: (id: string) => Effect.map(select("i.id = $1", [id]), one),
      findForUpdate: (id: string) => Effect.map(select("i.id = $1", [id], "for update of i"), one),
      /** The app's invitations, newest first, at most 100. */
      ofApp: (appId: string) => select("i.app_id = $1", [appId], "order by i.created_at desc, i.id desc limit 100"),
      /** Pending invitations to this account or one of these (verified) emails, newest first, at most 100. */
      pendingFor: (uuid: string, emails: ReadonlyArray<string>) =>
        select(
          "i.status = 'pending' and (i.invitee_uuid = $1 or i.email = any(array(select jsonb_array_elements_text($2::jsonb))))",
          [uuid, JSON.stringify(emails)],
          "order by i.created_at desc, i.id desc limit 100"
        ),
      decide: (id: string, status: "accepted" | "declined" | "cancelled", by: string, at: Date) =>
        sql`update app_invites set status = ${status}, decided_at = ${at}, decided_by = ${by} where id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    }
  })
}) {}
