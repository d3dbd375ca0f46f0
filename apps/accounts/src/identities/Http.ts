import { noStore, pageOf, pageRequest } from "@platform/http"
import { compiledGroup, now } from "@platform/service"
import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { AccountAuthLive } from "../auth/AccountAuth.ts"
import { CurrentAccount } from "../auth/CurrentAccount.ts"
import { LinkedIdentities, LinkedIdentityPosition, type LinkedIdentityRow } from "../providers/LinkedIdentities.ts"
import { IdentityLinkNotFound, IdentityNotFound } from "./errors.ts"
import { IdentityLinks } from "./IdentityLinks.ts"

const linkedIdentity = (row: LinkedIdentityRow) => ({
  id: row.id,
  provider: row.provider,
  email: row.email,
  linked_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at.toISOString()
})

export const IdentitiesLive = compiledGroup(AccountsApi, "identities", (handlers) =>
  Effect.gen(function*() {
    const identities = yield* LinkedIdentities
    const links = yield* IdentityLinks
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          const { after, limit } = yield* pageRequest(LinkedIdentityPosition, urlParams)
          const rows = yield* identities.list(account.uuid, limit, after)
          const page = pageOf(rows, limit, (row) => [row.created_at.toISOString(), row.id] as const)
          return { items: page.items.map(linkedIdentity), next_cursor: page.nextCursor }
        }))
      .handle("link", ({ path }) =>
        Effect.gen(function*() {
          yield* noStore
          const { authorizationUrl, link } = yield* links.start(yield* CurrentAccount, path.provider)
          return {
            link_id: link.id,
            provider: link.provider,
            authorization_url: authorizationUrl,
            expires_at: link.expires_at.toISOString()
          }
        }))
      .handle("linkStatus", ({ path }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          const found = yield* links.findOwn(account.uuid, path.link_id)
          if (Option.isNone(found)) return yield* new IdentityLinkNotFound({ message: "You started no link of this id." })
          const link = found.value
          const identity = link.identity_id === null ? Option.none() : yield* identities.findOwn(account.uuid, link.identity_id)
          const expired = link.status === "pending" && link.expires_at.getTime() <= (yield* now).getTime()
          return {
            link_id: link.id,
            provider: link.provider,
            status: expired ? "expired" as const : link.status,
            error: link.error_code === null ? null : { code: link.error_code, message: link.error_message ?? "" },
            identity: Option.getOrNull(Option.map(identity, linkedIdentity)),
            created_at: link.created_at.toISOString(),
            expires_at: link.expires_at.toISOString()
          }
        }))
      .handle("unlink", ({ path }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          if (!(yield* identities.unlink(account.uuid, path.identity_id))) {
            return yield* new IdentityNotFound({ message: "You have no linked identity of this id." })
          }
        }))
  })).pipe(Layer.provide([LinkedIdentities.Default, IdentityLinks.Default, AccountAuthLive]))
