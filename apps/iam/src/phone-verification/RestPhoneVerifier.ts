import { FetchHttpClient, HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { Duration, Effect, Layer, Redacted, Schema } from "effect"
import type { PhoneVerificationSettings } from "../config.ts"
import { PhoneVerificationUnavailable } from "./errors.ts"
import { PhoneVerifier } from "./PhoneVerifier.ts"

/** How long one call to the provider may take before the person is told to try again. */
const CALL_TIMEOUT = Duration.seconds(10)

const CheckAnswer = Schema.Struct({ status: Schema.String })

const unavailable = (problem: string) =>
  Effect.zipRight(
    Effect.logWarning(`phone verification provider: ${problem}`),
    Effect.fail(
      new PhoneVerificationUnavailable({
        message: "Phone codes cannot be sent or checked at the moment.",
        hint: "Try again in a minute, or use your email address."
      })
    )
  )

/**
 * A Twilio Verify-style provider: `POST {url}/v2/Services/{sid}/Verifications` (To, Channel=sms)
 * sends a code, `POST …/VerificationCheck` (To, Code) answers `status: approved` for the right
 * one; HTTP Basic with the account sid and token, form-encoded bodies. A check the provider has
 * no pending verification for (404: expired, used or given up) is a code that is not right.
 */
export const makeRestPhoneVerifier = (settings: PhoneVerificationSettings) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const base = `${settings.url}/v2/Services/${encodeURIComponent(settings.serviceSid)}`

    const post = (path: string, form: Record<string, string>) =>
      HttpClientRequest.post(`${base}/${path}`).pipe(
        HttpClientRequest.basicAuth(settings.accountSid, Redacted.value(settings.token)),
        HttpClientRequest.acceptJson,
        HttpClientRequest.bodyUrlParams(form),
        client.execute,
        Effect.scoped,
        Effect.timeoutFail({ duration: CALL_TIMEOUT, onTimeout: () => "no answer in time" as const }),
        Effect.catchAll((error) => unavailable(typeof error === "string" ? error : error._tag))
      )

    const expectOk = (what: string) => (response: HttpClientResponse.HttpClientResponse) =>
      response.status >= 200 && response.status < 300 ? Effect.void : unavailable(`${what} answered ${response.status}`)

    return PhoneVerifier.of({
      start: (phone) => Effect.flatMap(post("Verifications", { To: phone, Channel: "sms" }), expectOk("Verifications")),
      check: (phone, code) =>
        Effect.flatMap(post("VerificationCheck", { To: phone, Code: code }), (response) => {
          if (response.status === 404) return Effect.succeed(false)
          return Effect.zipRight(
            expectOk("VerificationCheck")(response),
            response.json.pipe(
              Effect.flatMap(Schema.decodeUnknown(CheckAnswer)),
              Effect.map((answer) => answer.status === "approved"),
              Effect.catchAll(() => unavailable("VerificationCheck answered something else than its JSON"))
            )
          )
        })
    })
  })

export const RestPhoneVerifier = (settings: PhoneVerificationSettings) =>
  Layer.effect(PhoneVerifier, makeRestPhoneVerifier(settings)).pipe(Layer.provide(FetchHttpClient.layer))
