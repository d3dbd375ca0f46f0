import { SqlClient } from "@effect/sql"
import { randomToken } from "@platform/crypto"
import { checkOutboundUrl, type OutboundPolicy } from "@platform/outbound"
import { now } from "@platform/service"
import { WebhookRoute } from "@platform/webhooks"
import { Duration, Effect, Either, Option } from "effect"
import { IamConfig } from "../config.ts"
import { SecretsAtRest } from "../SecretsAtRest.ts"
import { WebhookUrlRefused, WebhookSecretRefused } from "./errors.ts"

/** A replaced secret version stays accepted this long (decisions.md, "Webhooks": longer than any retry cycle). */
export const PREVIOUS_KEY_WINDOW = Duration.hours(24)

/** `whsec_` and 32 random bytes: what IAM generates when no secret is supplied. */
export const newWebhookSecret = () => randomToken("whsec_", 32)

/** A supplied secret: 32 to 200 printable ASCII characters, no spaces. */
const SECRET = /^[\x21-\x7e]{32,200}$/

/** IAM calls only public addresses; loopback is allowed outside production (development and tests). */
export const iamOutboundPolicy = (environment: string): OutboundPolicy => ({
  production: environment === "production",
  allowLoopback: environment !== "production"
})

export interface EndpointChange {
  readonly receiver: string
  readonly url: string
  readonly organizationId?: string | null
  readonly eventTypes?: ReadonlyArray<string> | null
  readonly testingKey?: string | null
  readonly by: string | null
}

/**
 * Where each receiver's deliveries go and the versions of its signing secret (sealed at rest). The
 * newest version signs new deliveries; a replaced one is accepted for PREVIOUS_KEY_WINDOW after it was
 * replaced, so deliveries already queued with it are still signed with it. Run changes in a transaction.
 */
export class WebhookEndpoints extends Effect.Service<WebhookEndpoints>()("iam/WebhookEndpoints", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const secrets = yield* SecretsAtRest
    const policy = iamOutboundPolicy((yield* IamConfig).environment)

    const checkUrl = (url: string) => {
      const checked = checkOutboundUrl(url, policy)
      return Either.isLeft(checked)
        ? Effect.fail(new WebhookUrlRefused({ message: `The webhook URL ${checked.left}.` }))
        : Effect.succeed(checked.right.toString())
    }

    const checkSecret = (secret: string) =>
      SECRET.test(secret)
        ? Effect.succeed(secret)
        : Effect.fail(new WebhookSecretRefused({ message: "A webhook secret is 32 to 200 printable ASCII characters without spaces." }))

    const currentVersion = (receiver: string) =>
      sql<{ readonly version: number | null }>`
        select max(version)::int as version from iam_webhook_keys where receiver = ${receiver}
      `.pipe(Effect.map((rows) => Option.fromNullable(rows[0]?.version)), Effect.orDie)

    /** Makes `secret` the receiver's current version; the one it replaces is accepted for the window. */
    const addVersion = (receiver: string, secret: string) =>
      Effect.gen(function*() {
        const at = yield* now
        const previous = yield* currentVersion(receiver)
        const version = Option.getOrElse(previous, () => 0) + 1
        yield* sql`
          update iam_webhook_keys set accepted_until = ${new Date(at.getTime() + Duration.toMillis(PREVIOUS_KEY_WINDOW))}
          where receiver = ${receiver} and accepted_until is null
        `.pipe(Effect.orDie)
        yield* sql`
          insert into iam_webhook_keys (receiver, version, sealed_secret, created_at)
          values (${receiver}, ${version}, ${secrets.seal("webhook_secret", secret)}, ${at})
        `.pipe(Effect.orDie)
        return version
      })

    /** Sets where the receiver's deliveries go (its URL checked against the outbound policy). */
    const put = (change: EndpointChange) =>
      Effect.gen(function*() {
        const url = yield* checkUrl(change.url)
        const at = yield* now
        yield* sql`
          insert into iam_webhook_endpoints (receiver, url, organization_id, event_types, testing_key, updated_by, updated_at)
          values (${change.receiver}, ${url}, ${change.organizationId ?? null},
            ${change.eventTypes == null ? null : JSON.stringify(change.eventTypes)}::jsonb, ${change.testingKey ?? null},
            ${change.by}, ${at})
          on conflict (receiver) do update set url = excluded.url, organization_id = excluded.organization_id,
            event_types = excluded.event_types, testing_key = excluded.testing_key, updated_by = excluded.updated_by,
            updated_at = excluded.updated_at
        `.pipe(Effect.orDie)
        return url
      })

    const find = (receiver: string) =>
      sql<{ readonly url: string; readonly organization_id: string | null; readonly event_types: ReadonlyArray<string> | null; readonly testing_key: string | null }>`
        select url, organization_id, event_types, testing_key from iam_webhook_endpoints where receiver = ${receiver}
      `.pipe(Effect.map((rows) => Option.fromNullable(rows[0])), Effect.orDie)

    const remove = (receiver: string) =>
      sql`delete from iam_webhook_endpoints where receiver = ${receiver}`.pipe(Effect.asVoid, Effect.orDie)

    /**
     * Where a delivery goes at this attempt: the receiver's URL now, with every secret version still
     * accepted; no endpoint or no key fails it at once (it stays replayable).
     */
    const route = (receiver: string): Effect.Effect<WebhookRoute> =>
      Effect.gen(function*() {
        const endpoint = yield* find(receiver)
        if (Option.isNone(endpoint)) return WebhookRoute.fail("the webhook was removed")
        const at = yield* now
        const keys = yield* sql<{ readonly version: number; readonly sealed_secret: string }>`
          select version, sealed_secret from iam_webhook_keys
          where receiver = ${receiver} and (accepted_until is null or accepted_until > ${at})
          order by version
        `.pipe(Effect.orDie)
        if (keys.length === 0) return WebhookRoute.fail("the webhook has no secret")
        const versions = new Map<number, string>()
        for (const key of keys) versions.set(key.version, yield* secrets.open("webhook_secret", key.sealed_secret))
        return WebhookRoute.deliverVersioned(endpoint.value.url, versions.get(keys[keys.length - 1]!.version)!, versions)
      })

    return { checkSecret, checkUrl, currentVersion, addVersion, put, find, remove, route } as const
  }),
  dependencies: [SecretsAtRest.Default]
}) {}
