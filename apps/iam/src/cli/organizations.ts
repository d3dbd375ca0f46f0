import { Command, Options } from "@effect/cli"
import { AccountsDirectory } from "@platform/accounts-identity-api"
import { Console, Effect, Either, Layer, Option, ParseResult, Schema } from "effect"
import { IamConfigLive } from "../config.ts"
import { carbonIdentity, isActiveCarbon } from "../identities/fromAccounts.ts"
import { IdentitiesRepo } from "../identities/IdentitiesRepo.ts"
import { IamAccountsDirectoryLive, IamDatabaseLive } from "../layers.ts"
import { OrganizationName } from "../organizations/Organization.ts"
import { Organizations } from "../organizations/Organizations.ts"

const name = Options.text("name").pipe(Options.withDescription("1 to 100 characters"))
const ownerUuid = Options.text("owner-uuid").pipe(Options.withDescription("The owning Carbon's uuid (an active Carbon of accounts)"))

/** The owner as IAM's projection holds it, else as accounts answers now (then remembered): an active Carbon. */
const activeCarbon = (uuid: string) =>
  Effect.gen(function*() {
    const identities = yield* IdentitiesRepo
    const known = yield* identities.find(uuid)
    if (Option.isSome(known) && known.value.kind === "carbon" && known.value.status === "active") return known.value
    const answered = yield* (yield* AccountsDirectory).byUuid(uuid)
    if (answered.kind !== "carbon" || !isActiveCarbon(answered)) {
      return yield* Effect.fail(new Error(`${uuid} is not an active Carbon; only one can own an organization`))
    }
    const identity = carbonIdentity(answered)
    yield* identities.remember(identity)
    return identity
  })

const layer = Layer.mergeAll(Organizations.Default, IdentitiesRepo.Default, IamAccountsDirectoryLive).pipe(
  Layer.provide(Layer.merge(IamDatabaseLive, IamConfigLive))
)

/** `organizations create`: a new organization owned by the Carbon, as if it had created it; prints `{organization, role}`. */
const create = Command.make("create", { name, ownerUuid }, (options) =>
  Effect.gen(function*() {
    const checked = Schema.decodeEither(OrganizationName)(options.name)
    if (Either.isLeft(checked)) {
      return yield* Effect.fail(new Error(`--name ${ParseResult.TreeFormatter.formatErrorSync(checked.left)}`))
    }
    const owner = yield* activeCarbon(options.ownerUuid)
    const created = yield* (yield* Organizations).create(
      { uuid: owner.uuid, id: owner.id, kind: "carbon", sessionId: "operator" },
      { name: checked.right }
    )
    yield* Console.log(JSON.stringify(created))
  }).pipe(Effect.provide(layer)))

export const organizationsCommand = Command.make("organizations").pipe(Command.withSubcommands([create]))
