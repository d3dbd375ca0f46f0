import { SqlClient } from "@effect/sql"
import { inTransaction } from "@platform/database"
import { ValidationFailed } from "@platform/http"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { accountNamed } from "../apps/AccountIds.ts"
import { AppAccess } from "../apps/AppAccess.ts"
import { AppAccessRepo } from "../apps/AppAccessRepo.ts"
import { AppAuthorsRepo } from "../apps/AppAuthorsRepo.ts"
import { AppSync } from "../apps/AppSync.ts"
import type { Caller } from "../auth/Caller.ts"
import { HistoryRepo } from "../history/HistoryRepo.ts"
import { AlreadyAnAuthor, AlreadyInvited, InviteNotFound, InviteNotPending } from "./errors.ts"
import { type InviteRow, InvitesRepo } from "./InvitesRepo.ts"

const INVITE_LIFETIME_MILLIS = 14 * 24 * 60 * 60 * 1000
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/

/** The invitation as shown: a pending one past its expiry is expired. */
const inviteOf = (row: InviteRow, at: Date) => ({
  id: row.id,
  app_id: row.app_id,
  app_name: row.app_name,
  to: row.invitee_id ?? row.email ?? row.invitee_uuid ?? "",
  invitee_uuid: row.invitee_uuid,
  email: row.email,
  status: row.status === "pending" && row.expires_at <= at ? "expired" as const : row.status,
  invited_by: { uuid: row.invited_by_uuid, id: row.invited_by_id, display_name: row.invited_by_name },
  created_at: row.created_at,
  expires_at: row.expires_at,
  decided_at: row.decided_at
})

const invalidTo = (problem: string) =>
  new ValidationFailed({ message: `Invalid values: to ${problem}.`, details: { fields: { to: problem } } })

const inviteNotFound = () => new InviteNotFound({ message: "No such invitation for you." })

/** Whether the invitation is addressed to the caller: their account, or an email they have verified. */
const addressedTo = (row: InviteRow, caller: Caller) =>
  row.invitee_uuid === caller.uuid || (row.email !== null && caller.verifiedEmails.some((email) => email.toLowerCase() === row.email))

/** The invites area's rules: each change with its history item; accepting one adds the author and tells accounts. */
export class Invites extends Effect.Service<Invites>()("registry/Invites", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const access = yield* AppAccess
    const apps = yield* AppAccessRepo
    const authors = yield* AppAuthorsRepo
    const invites = yield* InvitesRepo
    const history = yield* HistoryRepo
    const accounts = yield* AppSync
    const transaction = inTransaction(sql)

    /** Who `to` names: an account (through accounts) or an email. */
    const inviteeOf = (to: string) =>
      Effect.gen(function*() {
        const value = to.trim().toLowerCase()
        if (EMAIL.test(value)) return { email: value }
        const account = yield* accountNamed(value, { uuids: false })
        if (account === "malformed") return yield* invalidTo("must be a c: id, an si: id or an email")
        if (account === "none") return yield* invalidTo(`names no active account (${value})`)
        return { uuid: account.uuid, id: account.id }
      })

    const create = (caller: Caller, appId: string, to: string) =>
      transaction(Effect.gen(function*() {
        yield* access.asAuthor(appId, caller)
        yield* apps.findForUpdate(appId)
        const invitee = yield* inviteeOf(to)
        const at = yield* now
        if ("uuid" in invitee && (yield* authors.list(appId)).some((author) => author.account_uuid === invitee.uuid)) {
          return yield* new AlreadyAnAuthor({ message: `${to} is already an author of ${appId}.` })
        }
        yield* invites.expireStale(appId, at)
        const pending = yield* invites.pendingTo(appId, invitee)
        if (Option.isSome(pending)) {
          return yield* new AlreadyInvited({
            message: `${to} has a pending invitation to ${appId}.`,
            hint: "Cancel it to send another.",
            details: { invite_id: pending.value.id }
          })
        }
        const id = `inv_${randomUUID().replaceAll("-", "")}`
        yield* invites.insert({
          id,
          appId,
          invitee,
          by: { uuid: caller.uuid, id: caller.id, name: caller.displayName },
          at,
          expiresAt: new Date(at.getTime() + INVITE_LIFETIME_MILLIS)
        })
        const row = Option.getOrThrow(yield* invites.find(id))
        yield* history.record(appId, caller.uuid, "invite.created", { invite_id: id, to: inviteOf(row, at).to })
        return inviteOf(row, at)
      }))

    const ofApp = (caller: Caller, appId: string) =>
      Effect.gen(function*() {
        yield* access.asAuthor(appId, caller)
        const at = yield* now
        return (yield* invites.ofApp(appId)).map((row) => inviteOf(row, at))
      })

    const mine = (caller: Caller) =>
      Effect.gen(function*() {
        const at = yield* now
        const rows = yield* invites.pendingFor(caller.uuid, caller.verifiedEmails.map((email) => email.toLowerCase()))
        return rows.filter((row) => row.expires_at > at).map((row) => inviteOf(row, at))
      })

    /** The invitation locked, when still pending (not expired). */
    const pendingInvite = (row: InviteRow, at: Date) => {
      const shown = inviteOf(row, at)
      return shown.status === "pending"
        ? Effect.succeed(row)
        : Effect.fail(new InviteNotPending({ message: `This invitation is ${shown.status}.`, details: { status: shown.status } }))
    }

    const cancel = (caller: Caller, appId: string, inviteId: string) =>
      transaction(Effect.gen(function*() {
        yield* access.asAuthor(appId, caller)
        const found = yield* invites.findForUpdate(inviteId)
        if (Option.isNone(found) || found.value.app_id !== appId) return yield* inviteNotFound()
        const at = yield* now
        yield* pendingInvite(found.value, at)
        yield* invites.decide(inviteId, "cancelled", caller.uuid, at)
        yield* history.record(appId, caller.uuid, "invite.cancelled", { invite_id: inviteId })
        return { status: "cancelled" as const }
      }))

    const answerable = (caller: Caller, inviteId: string) =>
      Effect.gen(function*() {
        const found = yield* invites.findForUpdate(inviteId)
        if (Option.isNone(found) || !addressedTo(found.value, caller)) return yield* inviteNotFound()
        const at = yield* now
        return { invite: yield* pendingInvite(found.value, at), at }
      })

    const accept = (caller: Caller, inviteId: string) =>
      transaction(Effect.gen(function*() {
        const { at, invite } = yield* answerable(caller, inviteId)
        yield* apps.findForUpdate(invite.app_id)
        const joined = (yield* authors.list(invite.app_id)).every((author) => author.account_uuid !== caller.uuid)
        yield* invites.decide(inviteId, "accepted", caller.uuid, at)
        yield* history.record(invite.app_id, caller.uuid, "invite.accepted", { invite_id: inviteId })
        if (joined) {
          yield* authors.add(invite.app_id, { uuid: caller.uuid, id: caller.id, displayName: caller.displayName }, at)
          yield* history.record(invite.app_id, caller.uuid, "author.joined", { uuid: caller.uuid, id: caller.id })
          yield* accounts.sync(invite.app_id)
        }
        return { status: "accepted" as const }
      }))

    const decline = (caller: Caller, inviteId: string) =>
      transaction(Effect.gen(function*() {
        const { at, invite } = yield* answerable(caller, inviteId)
        yield* invites.decide(inviteId, "declined", caller.uuid, at)
        yield* history.record(invite.app_id, caller.uuid, "invite.declined", { invite_id: inviteId })
        return { status: "declined" as const }
      }))

    return { create, ofApp, mine, cancel, accept, decline }
  }),
  dependencies: [AppAccess.Default, AppAccessRepo.Default, AppAuthorsRepo.Default, InvitesRepo.Default, HistoryRepo.Default, AppSync.Default]
}) {}
