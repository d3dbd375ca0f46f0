import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Layer } from "effect"
import { RegistryConfigLive } from "../config.ts"
import { RegistryDatabaseLive } from "../layers.ts"
import { ReleaseSigningKeys } from "../signing/ReleaseSigningKeys.ts"

const layer = ReleaseSigningKeys.Default.pipe(Layer.provide(Layer.merge(RegistryDatabaseLive, RegistryConfigLive)))

const name = Options.text("name").pipe(Options.withDescription("The new key's name (default: release signing <date>)"), Options.optional)
const keyId = Args.text({ name: "key_id" }).pipe(Args.withDescription("The key to revoke, as GET /v1/keys lists it"))
const reason = Options.text("reason").pipe(Options.withDescription("Why the key is revoked: published with it"))

/** `keys list`: every key, newest first, as GET /v1/keys publishes them. */
const list = Command.make("list", {}, () =>
  Effect.gen(function*() {
    const keys = yield* (yield* ReleaseSigningKeys).list
    yield* Console.log(JSON.stringify({ items: keys }))
  }).pipe(Effect.provide(layer)))

/** `keys rotate [--name]`: a new key signs from now on, in every process; the previous keys stay published and active. */
const rotate = Command.make("rotate", { name }, (options) =>
  Effect.gen(function*() {
    const key = yield* (yield* ReleaseSigningKeys).rotate(options.name)
    yield* Console.log(JSON.stringify(key))
  }).pipe(Effect.provide(layer)))

/**
 * `keys revoke --reason <why> <key_id>`: the key is published as revoked at once; when it was the last active key a new one
 * is made. Options go before the key id: a key id (a JWK thumbprint) may begin with `-`, which after the id would read as an option.
 */
const revoke = Command.make("revoke", { keyId, reason }, (options) =>
  Effect.gen(function*() {
    const trimmed = options.reason.trim()
    if (trimmed === "") return yield* Effect.fail(new Error("--reason must say why the key is revoked"))
    const { created, revoked } = yield* (yield* ReleaseSigningKeys).revoke(options.keyId, trimmed)
    yield* Console.log(JSON.stringify({ revoked, created: created._tag === "Some" ? created.value : null }))
  }).pipe(Effect.provide(layer)))

export const keysCommand = Command.make("keys").pipe(Command.withSubcommands([list, rotate, revoke]))
