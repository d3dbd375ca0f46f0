import { SqlClient } from "@effect/sql"
import { pageOf, pageRequest } from "@platform/http"
import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { SessionPosition } from "./Api.ts"
import { CurrentAccount } from "../auth/CurrentAccount.ts"
import { SessionNotFound } from "../auth/errors.ts"
import { sessionOf } from "../oauth/Signin.ts"
import { SigninsRepo } from "../oauth/SigninsRepo.ts"
import { compiledGroup, now } from "@platform/service"
import { AccountAuthLive } from "../auth/AccountAuth.ts"
import { publishSignedOut } from "../events/membershipChanges.ts"
import { eventWriter } from "../events/EventWriter.ts"


export const SessionsLive = compiledGroup(AccountsApi, "sessions", (handlers) =>
  Effect.gen(function*() {
    const signins = yield* SigninsRepo
    const sql = yield* SqlClient.SqlClient
    const events = yield* eventWriter
    const reason = "revoked_by_account"
    return handlers
      .handle("current", () =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          const signin = yield* signins.find(account.signinId)
          return sessionOf(Option.getOrThrow(signin), account.signinId)
        }))
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          const { after, limit } = yield* pageRequest(SessionPosition, urlParams)
          const rows = yield* signins.listLive(account.uuid, yield* now, limit, after)
          const page = pageOf(rows, limit, (row) => [row.created_at.toISOString(), row.id] as const)
          return { items: page.items.map((row) => sessionOf(row, account.signinId)), next_cursor: page.nextCursor }
        }))
      .handle("revoke", ({ path }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          const at = yield* now
          const revoked = yield* sql.withTransaction(Effect.gen(function*() {
            if (!(yield* signins.revoke(account.uuid, path.session_id, at, reason))) return false
            yield* publishSignedOut(events, { accountUuid: account.uuid, signinIds: [path.session_id], reason, at })
            return true
          })).pipe(Effect.orDie)
          if (!revoked) {
            return yield* Effect.fail(new SessionNotFound({ message: "No live sign-in of this account has that id." }))
          }
        }))
      .handle("revokeAll", () =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          const at = yield* now
          const revoked = yield* sql.withTransaction(Effect.gen(function*() {
            const signinIds = yield* signins.revokeAll(account.uuid, at, reason)
            yield* publishSignedOut(events, { accountUuid: account.uuid, signinIds, reason, at })
            return signinIds.length
          })).pipe(Effect.orDie)
          return { revoked }
        }))
  })).pipe(Layer.provide([SigninsRepo.Default, AccountAuthLive]))
