import { compiledGroup, now } from "@platform/service"
import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { AppOrAuthorLive, CurrentAppManager } from "../app-management/AppOrAuthor.ts"
import { DEFAULT_UPDATES } from "../events/updateNames.ts"
import { queuePing } from "../events/ping.ts"
import { WebhookNotSet } from "../silicons/errors.ts"
import { SubscriptionNotFound } from "./errors.ts"
import { SubscriptionsRepo } from "./SubscriptionsRepo.ts"

const notFound = () => new SubscriptionNotFound({ message: "This app has no subscription with this id." })

const found = <A>(subscription: Option.Option<A>): Effect.Effect<A, SubscriptionNotFound> =>
  Option.match(subscription, { onNone: () => Effect.fail(notFound()), onSome: Effect.succeed })

const appId = Effect.map(CurrentAppManager, (manager) => manager.appId)

export const SubscriptionsLive = compiledGroup(AccountsApi, "subscriptions", (handlers) =>
  Effect.gen(function*() {
    const subscriptions = yield* SubscriptionsRepo
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          return yield* subscriptions.create({
            appId: yield* appId,
            kind: payload.kind,
            updates: payload.updates ?? DEFAULT_UPDATES,
            status: payload.status ?? "active",
            at: yield* now
          })
        }))
      .handle("list", () =>
        Effect.map(Effect.flatMap(appId, subscriptions.list), (items) => ({ items, next_cursor: null })))
      .handle("test", () =>
        Effect.gen(function*() {
          const queued = yield* queuePing(yield* appId, yield* now)
          return yield* Option.match(queued, {
            onNone: () =>
              Effect.fail(new WebhookNotSet({ message: "This app has no webhook URL.", hint: "Set one with PUT /v1/apps/{app_id}/webhook." })),
            onSome: Effect.succeed
          })
        }))
      .handle("get", ({ path }) => Effect.flatMap(subscriptions.find(path.app_id, path.subscription_id), found))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          const updated = yield* subscriptions.update(path.app_id, path.subscription_id, payload, yield* now)
          return yield* found(updated)
        }))
      .handle("delete", ({ path }) =>
        Effect.gen(function*() {
          if (!(yield* subscriptions.remove(path.app_id, path.subscription_id))) return yield* notFound()
        }))
  })).pipe(Layer.provide([SubscriptionsRepo.Default, AppOrAuthorLive]))
