import { Command, Options } from "@effect/cli"
import { Console, Effect, Layer, Option } from "effect"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { carbonMe } from "../accounts/Me.ts"
import { AccountsConfig, AccountsConfigLive } from "../config.ts"
import { AccountsDatabaseLive } from "../layers.ts"

const email = Options.text("email").pipe(Options.withDescription("Email address, recorded as verified"))
const phone = Options.text("phone").pipe(
  Options.withDescription("Phone number in E.164 (+14155550100), recorded as verified"),
  Options.optional
)
const id = Options.text("id").pipe(Options.withDescription("The Carbon's id, c:<handle>"))
const displayName = Options.text("display-name").pipe(Options.withDescription("1 to 100 characters"))

/** `carbons create`: a new active Carbon with a verified email (and phone); prints its Account (Me view). */
const create = Command.make("create", { email, phone, id, displayName }, (options) =>
  Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const carbon = yield* accounts.createCarbon({
      id: options.id,
      displayName: options.displayName,
      email: options.email,
      phone: Option.getOrUndefined(options.phone)
    })
    const { publicUrl } = yield* AccountsConfig
    yield* Console.log(JSON.stringify(carbonMe(carbon, publicUrl)))
  }).pipe(Effect.provide(Layer.merge(AccountsRepo.Default.pipe(Layer.provide(AccountsDatabaseLive)), AccountsConfigLive))))

export const carbonsCommand = Command.make("carbons").pipe(Command.withSubcommands([create]))
