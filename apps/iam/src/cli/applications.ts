import { Command, Options } from "@effect/cli"
import { SqlClient } from "@effect/sql"
import { Console, Effect, Layer, Option } from "effect"
import { Applications } from "../applications/Applications.ts"
import { MAX_CALLBACK_URLS } from "../applications/registration.ts"
import { IamConfigLive } from "../config.ts"
import { IamDatabaseLive } from "../layers.ts"
import { newWebhookSecret, WebhookEndpoints } from "../webhooks/WebhookEndpoints.ts"

const commaList = (value: Option.Option<string>) =>
  Option.match(value, { onNone: () => [], onSome: (list) => list.split(",").map((item) => item.trim()).filter((item) => item !== "") })

const appId = Options.text("app-id").pipe(Options.withDescription("3 to 30 characters of a-z 0-9 - _"))
const name = Options.text("name").pipe(Options.withDescription("The application's name, 1 to 100 characters"))
const callbackUrl = Options.text("callback-url").pipe(
  Options.withDescription(`Where logins send SLTs, matched exactly; https (http on loopback in development); repeat for up to ${MAX_CALLBACK_URLS}`),
  Options.repeated
)
const scope = Options.text("scope").pipe(
  Options.withDescription("Comma list of scopes beyond identity and self.profile.read; critical ones wait for a platform admin's review"),
  Options.optional
)
const webhookScope = Options.text("webhook-scope").pipe(Options.withDescription("Comma list of IAM webhook events (…v1)"), Options.optional)
const consentRequired = Options.boolean("consent-required").pipe(Options.withDescription("Ask the person's consent before the organization picker"))
const ownerUuid = Options.text("owner-uuid").pipe(
  Options.withDescription("The Carbon who owns it and may rotate its client secret"),
  Options.optional
)

const organizationId = Options.text("organization-id").pipe(
  Options.withDescription("The owning organization, whose owner and admins may also rotate its client secret"),
  Options.optional
)

const webhookUrl = Options.text("webhook-url").pipe(
  Options.withDescription("Where its IAM webhooks go; its signing secret (key version 1) is printed once as webhook.webhook_signing_secret"),
  Options.optional
)

/** The application's webhook at `url`, with a fresh secret as key version 1. */
const setWebhook = (appId: string, url: string) =>
  Effect.gen(function*() {
    const endpoints = yield* WebhookEndpoints
    const receiver = `app:${appId}`
    const checked = yield* endpoints.put({ receiver, url, by: null })
    const secret = newWebhookSecret()
    const version = yield* endpoints.addVersion(receiver, secret)
    return { url: checked, key_version: version, webhook_signing_secret: secret }
  })

/**
 * `applications register`: prints `{application, client_secret}` (and `webhook` with its signing secret when
 * --webhook-url is given); the secrets are shown only here.
 */
const register = Command.make("register", {
  appId,
  name,
  callbackUrl,
  scope,
  webhookScope,
  consentRequired,
  ownerUuid,
  organizationId,
  webhookUrl
}, (options) =>
  Effect.gen(function*() {
    const registered = yield* (yield* Applications).register({
      appId: options.appId,
      name: options.name,
      callbackUrls: options.callbackUrl,
      scopes: commaList(options.scope),
      webhookScope: commaList(options.webhookScope),
      consentRequired: options.consentRequired,
      ownerUuid: Option.getOrNull(options.ownerUuid),
      organizationId: Option.getOrNull(options.organizationId)
    })
    const webhook = Option.isSome(options.webhookUrl) ? { webhook: yield* setWebhook(options.appId, options.webhookUrl.value) } : {}
    yield* Console.log(JSON.stringify({ ...registered, ...webhook }))
  }).pipe(
    (register) => Effect.flatMap(SqlClient.SqlClient, (sql) => sql.withTransaction(register)),
    Effect.provide(
      Layer.merge(Applications.Default, WebhookEndpoints.Default).pipe(Layer.provideMerge(Layer.merge(IamDatabaseLive, IamConfigLive)))
    )
  ))

export const applicationsCommand = Command.make("applications").pipe(Command.withSubcommands([register]))
