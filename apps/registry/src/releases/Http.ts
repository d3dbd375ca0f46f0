import { Effect, Layer } from "effect"
import { RegistryApi } from "../api.ts"
import { CurrentCaller, MaybeCaller } from "../auth/Caller.ts"
import { Deliveries } from "./Deliveries.ts"
import { IdempotencyKeyRequired } from "./errors.ts"
import { packageResponse } from "./packageResponse.ts"
import { channelOf, targetOf } from "./query.ts"
import { Releases } from "./Releases.ts"
import { Resolver } from "./Resolver.ts"
import { compiledGroup } from "@platform/service"

export const ReleasesLive = compiledGroup(RegistryApi, "releases", (handlers) =>
  Effect.gen(function*() {
    const releases = yield* Releases
    return handlers
      .handle("create", ({ path, payload }) => Effect.flatMap(CurrentCaller, (caller) => releases.create(path.app_id, caller, payload)))
      .handle("list", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const channel = yield* channelOf(urlParams.channel)
          return yield* releases.list(path.app_id, yield* MaybeCaller, channel)
        }))
      .handle("promote", ({ path, payload }) =>
        Effect.flatMap(CurrentCaller, (caller) => releases.promote(path.app_id, path.release_id, caller, payload)))
      .handle("withdraw", ({ path, payload }) =>
        Effect.flatMap(CurrentCaller, (caller) => releases.withdraw(path.app_id, path.release_id, caller, payload)))
  })).pipe(Layer.provide(Releases.Default))

export const DeliveryLive = compiledGroup(RegistryApi, "delivery", (handlers) =>
  Effect.gen(function*() {
    const resolver = yield* Resolver
    const deliveries = yield* Deliveries
    return handlers
      .handle("resolve", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const channel = (yield* channelOf(urlParams.channel)) ?? "production"
          const target = yield* targetOf(urlParams.target)
          return yield* resolver.resolve(path.app_id, yield* MaybeCaller, { channel, version: urlParams.version, target })
        }))
      .handle("download", ({ path }) =>
        Effect.gen(function*() {
          const served = yield* deliveries.downloadable(path.app_id, path.package_id, yield* MaybeCaller)
          return yield* packageResponse(served, deliveries.bytes(served.id))
        }))
      .handle("install", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          if (headers["idempotency-key"] === undefined) {
            return yield* new IdempotencyKeyRequired({
              message: "POST /v1/apps/{app_id}/installs needs an Idempotency-Key.",
              hint: "Send one key per install, and the same key again when retrying it: the install counts once."
            })
          }
          return yield* deliveries.install(path.app_id, yield* MaybeCaller, payload)
        }))
  })).pipe(Layer.provide([Resolver.Default, Deliveries.Default]))
