import { decodeCursor, DEFAULT_PAGE_SIZE, pageOf } from "@platform/http"
import { compiledGroup, now } from "@platform/service"
import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { UnknownApp } from "../apps/errors.ts"
import { AccountAuthLive } from "../auth/AccountAuth.ts"
import { CurrentAccount } from "../auth/CurrentAccount.ts"
import { AppAccessRepo } from "./AppAccessRepo.ts"
import { myApp, MyAppPosition } from "./MyApp.ts"

const noMembership = () => new UnknownApp({ message: "You have no membership with this app." })

/** The reason recorded on the sign-ins and sent with membership.signed_out, as for /v1/me/sessions. */
const SIGN_OUT_REASON = "revoked_by_account"

export const AppAccessLive = compiledGroup(AccountsApi, "appAccess", (handlers) =>
  Effect.gen(function*() {
    const access = yield* AppAccessRepo
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          const limit = urlParams.limit ?? DEFAULT_PAGE_SIZE
          const after = urlParams.cursor === undefined
            ? Option.none()
            : Option.some(yield* decodeCursor(MyAppPosition, urlParams.cursor))
          const rows = yield* access.list(account.uuid, limit, after)
          const page = pageOf(rows, limit, (row) => [row.created_at.toISOString(), row.app_id] as const)
          return { items: page.items.map(myApp), next_cursor: page.nextCursor }
        }))
      .handle("remove", ({ path }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          const change = yield* access.remove(account.uuid, path.app_id, yield* now)
          if (change === "no_membership") return yield* Effect.fail(noMembership())
        }))
      .handle("signOut", ({ path }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          const revoked = yield* access.signOut(account.uuid, path.app_id, yield* now, SIGN_OUT_REASON)
          return yield* Option.match(revoked, {
            onNone: () => Effect.fail(noMembership()),
            onSome: (count) => Effect.succeed({ revoked: count })
          })
        }))
  })).pipe(Layer.provide([AppAccessRepo.Default, AccountAuthLive]))
