import { noStore } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { Effect, Layer, Option } from "effect"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { AccountsApi } from "../api.ts"
import { AppOrAuthorLive, CurrentAppManager } from "../app-management/AppOrAuthor.ts"
import { AccountAuthLive } from "../auth/AccountAuth.ts"
import { requireCarbon } from "../auth/requireCarbon.ts"
import type { WebhookReceiver } from "../events/webhookDeliveries.ts"
import { SiliconNotFound } from "../silicons/errors.ts"
import { requireSilicon } from "../silicons/requireSilicon.ts"
import { SiliconsRepo } from "../silicons/SiliconsRepo.ts"
import type { WebhookSetting } from "./Api.ts"
import { Webhooks } from "./Webhooks.ts"
import { compiledGroup } from "@platform/service"

/** Setting a webhook may show a new secret: never stored by caches, and kept short as an idempotent answer. */
const setting = (webhooks: Webhooks, receiver: WebhookReceiver, payload: typeof WebhookSetting.Type) =>
  Effect.gen(function*() {
    yield* noStore
    yield* carriesNewSecret
    return yield* webhooks.set(receiver, payload)
  })

const AppWebhookLive = compiledGroup(AccountsApi, "appWebhook", (handlers) =>
  Effect.gen(function*() {
    const webhooks = yield* Webhooks
    const app = Effect.map(CurrentAppManager, (manager): WebhookReceiver => ({ kind: "app", appId: manager.appId }))
    return handlers
      .handle("set", ({ payload }) => Effect.flatMap(app, (receiver) => setting(webhooks, receiver, payload)), { uninterruptible: true })
      .handle("remove", () => Effect.flatMap(app, webhooks.remove))
      .handle("deliveries", ({ urlParams }) => Effect.flatMap(app, (receiver) => webhooks.list(receiver, urlParams)))
      .handle("replay", ({ payload }) => Effect.flatMap(app, (receiver) => webhooks.replay(receiver, payload)))
  })).pipe(Layer.provide([Webhooks.Default, AppOrAuthorLive]))

const SiliconWebhookLive = compiledGroup(AccountsApi, "siliconWebhook", (handlers) =>
  Effect.gen(function*() {
    const webhooks = yield* Webhooks
    const silicons = yield* SiliconsRepo
    const ownUuid = Effect.map(requireSilicon, (silicon) => silicon.uuid)
    const custodyUuid = (uuid: string) =>
      Effect.gen(function*() {
        const carbon = yield* requireCarbon
        const silicon = yield* silicons.findInCustody(carbon.uuid, uuid)
        if (Option.isNone(silicon)) return yield* new SiliconNotFound({ message: "No Silicon with this uuid is in your custody." })
        return silicon.value.uuid
      })
    const receiverOf = (uuid: string): WebhookReceiver => ({ kind: "account", uuid })
    const own = Effect.map(ownUuid, receiverOf)
    const inCustody = (uuid: string) => Effect.map(custodyUuid(uuid), receiverOf)
    return handlers
      .handle("setOwn", ({ payload }) => Effect.flatMap(own, (receiver) => setting(webhooks, receiver, payload)), { uninterruptible: true })
      .handle("removeOwn", () => Effect.flatMap(own, webhooks.remove))
      .handle("deliveriesOwn", ({ urlParams }) => Effect.flatMap(own, (receiver) => webhooks.list(receiver, urlParams)))
      .handle("replayOwn", ({ payload }) => Effect.flatMap(own, (receiver) => webhooks.replay(receiver, payload)))
      .handle("testOwn", () => Effect.flatMap(ownUuid, webhooks.ping))
      .handle("setInCustody", ({ path, payload }) =>
        Effect.flatMap(inCustody(path.uuid), (receiver) => setting(webhooks, receiver, payload)), { uninterruptible: true })
      .handle("removeInCustody", ({ path }) => Effect.flatMap(inCustody(path.uuid), webhooks.remove))
      .handle("deliveriesInCustody", ({ path, urlParams }) =>
        Effect.flatMap(inCustody(path.uuid), (receiver) => webhooks.list(receiver, urlParams)))
      .handle("replayInCustody", ({ path, payload }) =>
        Effect.flatMap(inCustody(path.uuid), (receiver) => webhooks.replay(receiver, payload)))
      .handle("testInCustody", ({ path }) => Effect.flatMap(custodyUuid(path.uuid), webhooks.ping))
  })).pipe(Layer.provide([Webhooks.Default, SiliconsRepo.Default, AccountsRepo.Default, AccountAuthLive]))

/** The webhooks area: an app's webhook, a Silicon's own and its custodian's routes to it. */
export const WebhooksLive = Layer.mergeAll(AppWebhookLive, SiliconWebhookLive)
