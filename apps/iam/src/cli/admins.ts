import { Command, Options } from "@effect/cli"
import { now } from "@platform/service"
import { Console, Effect, Layer, Option } from "effect"
import { IdentitiesRepo } from "../identities/IdentitiesRepo.ts"
import { IamDatabaseLive } from "../layers.ts"
import { PlatformAdminsRepo } from "../platform-admins/PlatformAdminsRepo.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const carbonUuid = Options.text("carbon-uuid").pipe(Options.withDescription("The Carbon's uuid (its accounts uuid)"))

/** A lower-case uuid that IAM does not know as a Silicon (a Carbon IAM has not seen yet may hold a grant before its first login). */
const checkedCarbon = (uuid: string) =>
  Effect.gen(function*() {
    if (!UUID.test(uuid)) return yield* Effect.fail(new Error("--carbon-uuid must be a lower-case uuid"))
    const known = yield* (yield* IdentitiesRepo).find(uuid)
    if (Option.isSome(known) && known.value.kind !== "carbon") {
      return yield* Effect.fail(new Error(`${known.value.id} is a Silicon; only a Carbon can be a platform admin`))
    }
    return uuid
  })

const layer = Layer.merge(PlatformAdminsRepo.Default, IdentitiesRepo.Default).pipe(Layer.provide(IamDatabaseLive))

/** `admins grant`: makes the Carbon a platform admin; prints its current grant (the existing one when it holds one). */
const grant = Command.make("grant", { carbonUuid }, (options) =>
  Effect.gen(function*() {
    const uuid = yield* checkedCarbon(options.carbonUuid)
    const granted = yield* (yield* PlatformAdminsRepo).grant(uuid, null, yield* now)
    yield* Console.log(JSON.stringify(granted))
  }).pipe(Effect.provide(layer)))

/** `admins revoke`: ends the Carbon's current grant at once. */
const revoke = Command.make("revoke", { carbonUuid }, (options) =>
  Effect.gen(function*() {
    const uuid = yield* checkedCarbon(options.carbonUuid)
    const revoked = yield* (yield* PlatformAdminsRepo).revoke(uuid, null, yield* now)
    if (!revoked) return yield* Effect.fail(new Error(`${uuid} holds no current platform admin grant`))
    yield* Console.log(JSON.stringify({ carbon_uuid: uuid, revoked: true }))
  }).pipe(Effect.provide(layer)))

export const adminsCommand = Command.make("admins").pipe(Command.withSubcommands([grant, revoke]))
