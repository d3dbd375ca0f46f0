import { Effect, Layer } from "effect"
import { RegistryApi } from "../api.ts"
import { CurrentCaller } from "../auth/Caller.ts"
import { Invites } from "./Invites.ts"
import { compiledGroup } from "@platform/service"

export const InvitesLive = compiledGroup(RegistryApi, "invites", (handlers) =>
  Effect.gen(function*() {
    const invites = yield* Invites
    return handlers
      .handle("create", ({ path, payload }) => Effect.flatMap(CurrentCaller, (caller) => invites.create(caller, path.app_id, payload.to)))
      .handle("ofApp", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => Effect.map(invites.ofApp(caller, path.app_id), (items) => ({ items }))))
      .handle("cancel", ({ path }) => Effect.flatMap(CurrentCaller, (caller) => invites.cancel(caller, path.app_id, path.invite_id)))
      .handle("mine", () => Effect.flatMap(CurrentCaller, (caller) => Effect.map(invites.mine(caller), (items) => ({ items }))))
      .handle("accept", ({ path }) => Effect.flatMap(CurrentCaller, (caller) => invites.accept(caller, path.invite_id)))
      .handle("decline", ({ path }) => Effect.flatMap(CurrentCaller, (caller) => invites.decline(caller, path.invite_id)))
  })).pipe(Layer.provide(Invites.Default))
