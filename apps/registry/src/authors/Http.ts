import { Effect, Layer } from "effect"
import { RegistryApi } from "../api.ts"
import { CurrentCaller, MaybeCaller } from "../auth/Caller.ts"
import { Authors } from "./Authors.ts"
import { compiledGroup } from "@platform/service"

export const AuthorsLive = compiledGroup(RegistryApi, "authors", (handlers) =>
  Effect.gen(function*() {
    const authors = yield* Authors
    return handlers
      .handle("list", ({ path }) =>
        Effect.flatMap(MaybeCaller, (caller) => Effect.map(authors.list(path.app_id, caller), (items) => ({ items }))))
      .handle("leave", ({ path }) => Effect.flatMap(CurrentCaller, (caller) => authors.leave(path.app_id, caller)))
      .handle("transfer", ({ path, payload }) =>
        Effect.flatMap(CurrentCaller, (caller) => authors.transfer(path.app_id, caller, payload.uuid)))
      .handle("remove", ({ path }) => Effect.flatMap(CurrentCaller, (caller) => authors.remove(path.app_id, caller, path.uuid)))
  })).pipe(Layer.provide(Authors.Default))
