import { Command } from "@effect/cli"
import { SigningKeys } from "@platform/signing-keys"
import { Console, Effect, Layer } from "effect"
import { AccountsConfigLive } from "../config.ts"
import { AccountsDatabaseLive, SigningKeysLive } from "../layers.ts"

/** `keys rotate`: a new key per algorithm signs from now on; the old ones stay published until their tokens expire. */
const rotate = Command.make("rotate", {}, () =>
  Effect.gen(function*() {
    const keys = yield* SigningKeys
    const rotated = yield* keys.rotate
    yield* Console.log(JSON.stringify({ rotated }))
  }).pipe(
    Effect.provide(SigningKeysLive.pipe(Layer.provide(AccountsDatabaseLive), Layer.provide(AccountsConfigLive)))
  ))

export const keysCommand = Command.make("keys").pipe(Command.withSubcommands([rotate]))
