import { Command, Options } from "@effect/cli"
import { Console, Effect, Layer } from "effect"
import { Bundles, MAX_BUNDLE_APPLICATIONS } from "../applications/Bundles.ts"
import { IamDatabaseLive } from "../layers.ts"

const bundleId = Options.text("bundle-id").pipe(Options.withDescription("3 to 30 characters of a-z 0-9 - _"))
const appId = Options.text("app-id").pipe(
  Options.withDescription(`A registered application, in the order the login shows them; repeat for up to ${MAX_BUNDLE_APPLICATIONS}`),
  Options.repeated
)

/** `bundles create`: prints the Bundle with its applications. */
const create = Command.make("create", { bundleId, appId }, (options) =>
  Effect.flatMap(Bundles, (bundles) => bundles.create(options.bundleId, options.appId)).pipe(
    Effect.flatMap((bundle) => Console.log(JSON.stringify(bundle))),
    Effect.provide(Bundles.Default.pipe(Layer.provide(IamDatabaseLive)))
  ))

export const bundlesCommand = Command.make("bundles").pipe(Command.withSubcommands([create]))
