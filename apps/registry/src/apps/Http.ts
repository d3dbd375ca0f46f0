import { carriesNewSecret } from "@platform/idempotency"
import { Effect, Layer } from "effect"
import { RegistryApi } from "../api.ts"
import { CurrentCaller, MaybeCaller } from "../auth/Caller.ts"
import { appOf } from "./App.ts"
import { AppAccess } from "./AppAccess.ts"
import { REQUIRED_COMMANDS } from "./Api.ts"
import { Apps } from "./Apps.ts"
import { compiledGroup } from "@platform/service"

export const AppsLive = compiledGroup(RegistryApi, "apps", (handlers) =>
  Effect.gen(function*() {
    const apps = yield* Apps
    const access = yield* AppAccess
    return handlers
      .handle("availability", ({ path }) => apps.availability(path.app_id))
      // Both answers show a new app secret: an idempotent replay keeps them 10 minutes, not 24 hours.
      .handle("create", ({ payload }) =>
        Effect.zipLeft(Effect.flatMap(CurrentCaller, (caller) => apps.create(caller, payload)), carriesNewSecret))
      .handle("get", ({ path }) =>
        Effect.flatMap(MaybeCaller, (caller) =>
          Effect.map(access.visible(path.app_id, caller), ({ app, author }) => appOf(app, author))))
      .handle("update", ({ path, payload }) => Effect.flatMap(CurrentCaller, (caller) => apps.update(caller, path.app_id, payload)))
      .handle("setAccess", ({ path, payload }) =>
        Effect.flatMap(CurrentCaller, (caller) => apps.setAccess(caller, path.app_id, payload)))
      .handle("readiness", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) =>
          Effect.map(apps.readiness(caller, path.app_id), (readiness) => ({ ...readiness, required_commands: [...REQUIRED_COMMANDS] }))))
      .handle("publish", ({ path }) => Effect.flatMap(CurrentCaller, (caller) => apps.publish(caller, path.app_id)))
      .handle("rotateSecret", ({ path }) =>
        Effect.zipLeft(Effect.flatMap(CurrentCaller, (caller) => apps.rotateSecret(caller, path.app_id)), carriesNewSecret))
      .handle("history", ({ path, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => apps.history(caller, path.app_id, urlParams.limit ?? 100, urlParams.offset ?? 0)))
  })).pipe(Layer.provide([Apps.Default, AppAccess.Default]))
