import { HttpServerRequest } from "@effect/platform"
import { ValidationFailed } from "@platform/http"
import { now } from "@platform/service"
import { hmacSha256V1 } from "@platform/webhooks"
import { Duration, Effect, Either, Option, ParseResult, Schema } from "effect"
import { SecretsAtRest } from "../SecretsAtRest.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { SsoSignatureInvalid } from "./errors.ts"
import { PROVIDER_EVENT_TOLERANCE } from "./policy.ts"
import { SsoRepo } from "./SsoRepo.ts"

/** A provider's event: a user deprovisioned at the provider, named by its subject or email (at least one). */
export const ProviderEvent = Schema.Struct({
  type: Schema.Literal("user.deprovisioned"),
  subject: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255))),
  email: Schema.optional(Schema.String.pipe(Schema.minLength(3), Schema.maxLength(320)))
}).annotations({ identifier: "SsoProviderEvent" })

export const TIMESTAMP_HEADER = "x-sso-timestamp"
export const SIGNATURE_HEADER = "x-sso-signature"

const refused = (message: string) =>
  new SsoSignatureInvalid({
    message,
    hint: `Sign <${TIMESTAMP_HEADER}>.<raw body> with HMAC-SHA256 under the connection's webhook secret, as v1=<hex>, within 5 minutes.`
  })

/**
 * The SSO provider webhook (spec 2's "verified provider signature header"): the signature is checked over
 * the raw body before anything in it is read; a deprovisioning ends the IAM sessions that connection
 * opened for that user. An unknown connection is refused as a bad signature (nothing to check it with).
 */
export class ProviderEvents extends Effect.Service<ProviderEvents>()("iam/ProviderEvents", {
  effect: Effect.gen(function*() {
    const repo = yield* SsoRepo
    const sessions = yield* IamSessions
    const secrets = yield* SecretsAtRest
    return {
      receive: (connectionId: string) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const timestamp = request.headers[TIMESTAMP_HEADER] ?? ""
          const signature = request.headers[SIGNATURE_HEADER] ?? ""
          const body = yield* Effect.orElseSucceed(request.text, () => "")
          const connection = yield* repo.connection(connectionId)
          if (Option.isNone(connection)) return yield* refused("No SSO connection has this id.")
          const at = yield* now
          const seconds = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : Number.NaN
          if (!(Math.abs(at.getTime() / 1000 - seconds) <= Duration.toSeconds(PROVIDER_EVENT_TOLERANCE))) {
            return yield* refused(`${TIMESTAMP_HEADER} is missing or more than 5 minutes from now.`)
          }
          const secret = yield* secrets.open("sso_webhook_secret", connection.value.webhook_secret)
          if (!hmacSha256V1.verify(signature, secret, timestamp, body)) return yield* refused("The provider event's signature does not check out.")
          const event = Either.flatMap(
            Either.try({ try: () => JSON.parse(body) as unknown, catch: () => "the body is not JSON" }),
            (json) => Either.mapLeft(Schema.decodeUnknownEither(ProviderEvent)(json), (error) => ParseResult.TreeFormatter.formatErrorSync(error))
          )
          if (Either.isLeft(event) || (event.right.subject === undefined && event.right.email === undefined)) {
            const problem = Either.isLeft(event) ? event.left : "needs subject or email"
            return yield* new ValidationFailed({ message: `The provider event is not one IAM knows: ${problem}`, details: { fields: { body: problem } } })
          }
          const ids = yield* repo.openSessionsOf(connectionId, { subject: event.right.subject, email: event.right.email?.toLowerCase() })
          yield* Effect.forEach(ids, (id) => sessions.end(id, "sso_deprovisioned"))
          return { ended_sessions: ids.length }
        })
    }
  }),
  dependencies: [SsoRepo.Default, IamSessions.Default, SecretsAtRest.Default]
}) {}
