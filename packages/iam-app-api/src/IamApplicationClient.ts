import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { basicAuthorization } from "@platform/auth"
import { OAuthError } from "@platform/oauth"
import { Context, Duration, Effect, Layer, Redacted, Schema } from "effect"
import { FakeIam } from "./FakeIam.ts"
import { SHORT_LIVED_TOKEN_GRANT } from "./grantTypes.ts"
import { IamApplicationApi } from "./IamApplicationApi.ts"
import type { ApplicationIntrospection, ApplicationTokenResponse, OnBehalfOfProof, OnBehalfOfVerification } from "./responses.ts"

/** IAM did not answer in time, could not be reached, or answered outside its contract (a 5xx, a body it does not declare). */
export class IamUnavailable extends Schema.TaggedError<IamUnavailable>()("IamUnavailable", { message: Schema.String }) {}

/** What a call can fail with: IAM's RFC 6749 refusal (invalid_grant, invalid_client, …) or IAM out of reach. */
export type IamApplicationFailure = OAuthError | IamUnavailable

/** One application's calls to IAM, authenticated as that application. */
export interface IamApplicationCalls {
  readonly appId: string
  /** Exchanges an SLT from the login callback for an application session. */
  readonly exchange: (slt: string, retry?: RetryKey) => Effect.Effect<ApplicationTokenResponse, IamApplicationFailure>
  /**
   * Rotates the refresh token; persist the new one before the next refresh, and refresh one family at a time.
   * invalid_grant is terminal. Resend an interrupted call with the same `idempotencyKey` to get its answer.
   */
  readonly refresh: (refreshToken: string, retry?: RetryKey) => Effect.Effect<ApplicationTokenResponse, IamApplicationFailure>
  /** Who a token of this application speaks for now, or `{active: false}`. */
  readonly introspect: (token: string) => Effect.Effect<ApplicationIntrospection, IamApplicationFailure>
  /** Ends the session of one of this application's tokens. */
  readonly revoke: (token: string) => Effect.Effect<void, IamApplicationFailure>
  /** A 60-second, single-use proof that this application acts for the access token's subject, for `audience` to verify. */
  readonly proveOnBehalfOf: (
    request: { readonly accessToken: string; readonly audience: string }
  ) => Effect.Effect<OnBehalfOfProof, IamApplicationFailure>
  /** Verifies (and spends) a proof another application sent this one. */
  readonly verifyProof: (proof: string) => Effect.Effect<OnBehalfOfVerification, IamApplicationFailure>
}

/** The Idempotency-Key of a call that may be resent after a transport failure (the same key gets the first answer). */
export interface RetryKey {
  readonly idempotencyKey?: string | undefined
}

const retryHeaders = (retry: RetryKey | undefined) =>
  retry?.idempotencyKey === undefined ? {} : { "idempotency-key": retry.idempotencyKey }

export interface IamApplicationClientOptions {
  /** IAM's origin, such as https://iam.example.com. */
  readonly baseUrl: string
  readonly appId: string
  readonly secret: Redacted.Redacted<string>
}

/** A call that takes longer than this is IamUnavailable. */
export const IAM_CALL_TIMEOUT = Duration.seconds(10)

const unavailable = (cause: { readonly message: string }) =>
  new IamUnavailable({ message: `IAM could not answer: ${cause.message}` })

/** A call's own refusal kept, anything else (transport, undeclared status or body, timeout) as IamUnavailable. */
const settled = <A, E extends { readonly message: string }>(call: Effect.Effect<A, E | OAuthError>) =>
  call.pipe(
    Effect.timeoutFail({ duration: IAM_CALL_TIMEOUT, onTimeout: () => unavailable({ message: "no answer within 10 seconds" }) }),
    Effect.mapError((error): IamApplicationFailure =>
      error instanceof OAuthError || error instanceof IamUnavailable ? error : unavailable(error)
    )
  )

const make = (options: IamApplicationClientOptions) =>
  Effect.gen(function*() {
    const authorization = basicAuthorization(options.appId, Redacted.value(options.secret))
    const client = yield* HttpApiClient.make(IamApplicationApi, {
      baseUrl: options.baseUrl,
      transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("authorization", authorization))
    })
    const calls: IamApplicationCalls = {
      appId: options.appId,
      exchange: (slt, retry) =>
        settled(client.applicationSessions.token({ headers: retryHeaders(retry), payload: { grant_type: SHORT_LIVED_TOKEN_GRANT, slt } })),
      refresh: (refreshToken, retry) =>
        settled(client.applicationSessions.token({
          headers: retryHeaders(retry),
          payload: { grant_type: "refresh_token", refresh_token: refreshToken }
        })),
      introspect: (token) => settled(client.applicationSessions.introspect({ payload: { token } })),
      revoke: (token) => settled(client.applicationSessions.revoke({ payload: { token } })),
      proveOnBehalfOf: ({ accessToken, audience }) =>
        settled(client.onBehalfOf.prove({ payload: { access_token: accessToken, audience } })),
      verifyProof: (proof) => settled(client.onBehalfOf.verify({ payload: { proof } }))
    }
    return calls
  })

/** The app id `IamApplicationClient.Test` acts as. */
export const FAKE_APP_ID = "test-application"

/**
 * IAM's application API for one application. `layer` calls a real IAM over HTTP; `Test` stands in for IAM
 * in memory (the `FakeIam` it provides mints SLTs and ends sessions), with IAM's rules and lifetimes on the Clock.
 */
export class IamApplicationClient extends Context.Tag("@platform/iam-app-api/IamApplicationClient")<
  IamApplicationClient,
  IamApplicationCalls
>() {
  static layer = (options: IamApplicationClientOptions): Layer.Layer<IamApplicationClient> =>
    Layer.effect(this, make(options)).pipe(Layer.provide(FetchHttpClient.layer))

  /** The client of `appId` over the FakeIam provided beside it (several applications can share one FakeIam). */
  static fake = (appId: string): Layer.Layer<IamApplicationClient, never, FakeIam> =>
    Layer.effect(this, Effect.map(FakeIam, (iam) => iam.clientFor(appId)))

  /** The client of FAKE_APP_ID over a fresh FakeIam, both provided. */
  static Test: Layer.Layer<IamApplicationClient | FakeIam> = IamApplicationClient.fake(FAKE_APP_ID).pipe(
    Layer.provideMerge(FakeIam.layer)
  )
}
