import { Effect, Layer } from "effect"
import { RegistryApi } from "../api.ts"
import { CurrentCaller } from "../auth/Caller.ts"
import { Packages } from "./Packages.ts"
import { compiledGroup } from "@platform/service"

export const PackagesLive = compiledGroup(RegistryApi, "packages", (handlers) =>
  Effect.gen(function*() {
    const packages = yield* Packages
    return handlers
      .handle("upload", ({ path, payload }) =>
        Effect.flatMap(CurrentCaller, (caller) => packages.upload(path.app_id, caller, path.target, payload)))
      .handle("list", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => Effect.map(packages.list(path.app_id, caller), (items) => ({ items }))))
  })).pipe(Layer.provide(Packages.Default))
