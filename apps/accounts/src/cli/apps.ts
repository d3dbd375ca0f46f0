import { Command, Options } from "@effect/cli"
import { Console, Effect, Layer } from "effect"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { appRecord, IdTokenSigningAlg } from "../apps/AppRecord.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { createFakeApp } from "../apps/FakeApps.ts"
import { AccountsConfig, AccountsConfigLive } from "../config.ts"
import { AccountsDatabaseLive } from "../layers.ts"

const appId = Options.text("app-id").pipe(Options.withDescription("3 to 30 characters of a-z 0-9 - _"))
const name = Options.text("name").pipe(Options.withDescription("The app's name, 1 to 200 characters"))
const redirectUri = Options.text("redirect-uri").pipe(
  Options.withDescription("A registered redirect URI (repeat the option for more)"),
  Options.repeated
)
const owner = Options.text("owner").pipe(Options.withDescription("The owning Carbon, c:<handle>"), Options.optional)
const scopeFields = Options.text("scope-fields").pipe(
  Options.withDescription("Comma list of details the app requires: email, phone, dob, timezone"),
  Options.optional
)

const idTokenAlg = Options.choice("id-token-signed-response-alg", IdTokenSigningAlg.literals).pipe(
  Options.withDescription("How the app's id tokens are signed: EdDSA (default) or RS256, for relying parties without EdDSA"),
  Options.optional
)

/** `apps create`: a `fake` app for development and tests; prints `{app, app_secret}`, the secret only here. */
const create = Command.make("create", { appId, name, redirectUri, owner, scopeFields, idTokenAlg }, (options) =>
  Effect.gen(function*() {
    const created = yield* createFakeApp({
      appId: options.appId,
      name: options.name,
      redirectUris: options.redirectUri,
      owner: options.owner,
      scopeFields: options.scopeFields._tag === "Some"
        ? options.scopeFields.value.split(",").map((field) => field.trim()).filter((field) => field !== "")
        : [],
      ...(options.idTokenAlg._tag === "Some" ? { idTokenSignedResponseAlg: options.idTokenAlg.value } : {})
    })
    const { publicUrl } = yield* AccountsConfig
    yield* Console.log(JSON.stringify({ app: appRecord(created.app, publicUrl), app_secret: created.secret }))
  }).pipe(
    Effect.provide(Layer.mergeAll(AppsRepo.Default, AccountsRepo.Default, AccountsConfigLive).pipe(Layer.provideMerge(AccountsDatabaseLive)))
  ))

export const appsCommand = Command.make("apps").pipe(Command.withSubcommands([create]))
