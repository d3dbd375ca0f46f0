import { HttpServerRequest } from "@effect/platform"
import { sha256Hex } from "@platform/crypto"
import { clientAddress, noStore, ValidationFailed } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { enforceRateLimit, limitSuccesses, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { networkTimezone } from "../accounts/networkTimezone.ts"
import { AccountsConfig } from "../config.ts"
import { compiledGroup, now } from "@platform/service"
import { TokenIssuer } from "../oauth/TokenIssuer.ts"
import { resolveCustodian } from "./custodianAddress.ts"
import { custodianLabel, requestStatusView } from "./CustodianRequest.ts"
import { assertionSignIn } from "./assertions/assertionSignIn.ts"
import { CustodianRequestsRepo } from "./CustodianRequestsRepo.ts"
import { Custody } from "./Custody.ts"
import { InvalidRequestToken, RequestTokenRequired } from "./errors.ts"
import { newSiliconInput, outboundPolicy } from "./newSiliconInput.ts"
import { siliconMe } from "./SiliconMe.ts"
import { signinEligibility } from "./signinEligibility.ts"
import { StkLogin } from "./StkLogin.ts"
import { TokenIssuerLive } from "./TokenIssuerLive.ts"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { AssertionVerifier } from "./assertions/AssertionVerifier.ts"
import { CustodianRequestsLive, MySiliconsLive } from "./CustodyHttp.ts"
import { SiliconKeysLive } from "./keys/Http.ts"
import { SiliconIdentityLive } from "./identity/Http.ts"

const CLIENT_LABEL_LIMIT = 100

const creationAttempts: RateLimitRule = {
  id: "silicons_create_attempts",
  operation: "POST /v1/silicons",
  limit: 60,
  window: "1 hour",
  per: "IP"
}
const creations: RateLimitRule = {
  id: "silicons_created",
  operation: "POST /v1/silicons (successful)",
  limit: 10,
  window: "1 hour",
  per: "IP"
}
const logins: RateLimitRule = { id: "silicons_login", operation: "POST /v1/silicons/login", limit: 60, window: "1 minute", per: "IP" }

/** Exactly one sign-in form: {id, stk} or {assertion}. */
const loginForm = (body: { readonly id?: string | undefined; readonly stk?: string | undefined; readonly assertion?: string | undefined }) => {
  const refuse = (fields: Record<string, string>) =>
    Effect.fail(new ValidationFailed({ message: "Send {id, stk} or {assertion}, not both.", details: { fields } }))
  if (body.assertion !== undefined) {
    return body.id !== undefined || body.stk !== undefined
      ? refuse({ assertion: "send either assertion alone or id with stk" })
      : Effect.succeed({ form: "assertion" as const, assertion: body.assertion })
  }
  if (body.id === undefined || body.stk === undefined) {
    return refuse({ [body.id === undefined ? "id" : "stk"]: "is required with " + (body.id === undefined ? "stk" : "id") })
  }
  return Effect.succeed({ form: "stk" as const, id: body.id, stk: body.stk })
}

const SiliconCreateAndLoginLive = compiledGroup(AccountsApi, "silicons", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const limiter = yield* RateLimiter
    const custody = yield* Custody
    const requests = yield* CustodianRequestsRepo
    const stkLogin = yield* StkLogin
    const issuer = yield* TokenIssuer
    const webhooks = outboundPolicy(config)

    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          yield* noStore
          yield* carriesNewSecret
          const ip = yield* clientAddress(config.trustProxy)
          yield* enforceRateLimit(limiter, creationAttempts, ip)
          return yield* limitSuccesses(limiter, creations, ip, Effect.gen(function*() {
            // Spec 1: "default caller's network timezone else UTC".
            const { generatedStk, input } = yield* newSiliconInput(payload, webhooks, networkTimezone(ip) ?? "UTC")
            const to = yield* resolveCustodian("custodian", payload.custodian)
            const created = yield* custody.selfCreate(input, to)
            return {
              silicon: siliconMe(created.silicon, config.publicUrl),
              stk: generatedStk,
              request: {
                id: created.request.id,
                kind: "initial" as const,
                status: "pending" as const,
                custodian: custodianLabel(created.request),
                expires_at: created.request.expires_at.toISOString()
              },
              request_token: created.requestToken,
              webhook_secret: created.webhookSecret
            }
          }))
        }), { uninterruptible: true })
      .handle("request", ({ path }) =>
        Effect.gen(function*() {
          yield* noStore
          const request = yield* HttpServerRequest.HttpServerRequest
          const authorization = request.headers["authorization"]
          if (authorization === undefined || authorization.trim() === "") {
            return yield* new RequestTokenRequired({ message: "Send the request's sarq_ token as a bearer token." })
          }
          const token = /^Bearer +(sarq_[A-Za-z0-9_-]+)$/i.exec(authorization.trim())?.[1]
          const found = token === undefined ? Option.none() : yield* requests.findByTokenHash(sha256Hex(token))
          if (Option.isNone(found) || found.value.id !== path.id) {
            return yield* new InvalidRequestToken({ message: "This token is not the one of this request." })
          }
          return requestStatusView(yield* custody.settled(found.value))
        }))
      .handle("login", ({ payload }) =>
        Effect.gen(function*() {
          yield* noStore
          yield* carriesNewSecret
          yield* enforceRateLimit(limiter, logins, yield* clientAddress(config.trustProxy))
          const form = yield* loginForm(payload)
          const clientLabel = payload.client_label === undefined ? null : payload.client_label.slice(0, CLIENT_LABEL_LIMIT)
          if (form.form === "assertion") return yield* assertionSignIn(form.assertion, clientLabel)
          const silicon = yield* stkLogin.check(form.id, form.stk)
          yield* signinEligibility(silicon)
          return yield* issuer.signIn({ accountUuid: silicon.uuid, clientLabel, method: "stk", now: yield* now })
        }), { uninterruptible: true })
  })).pipe(
  Layer.provide([
    TokenIssuerLive,
    ContactsRepo.Default,
    AccountsRepo.Default,
    StkLogin.Default,
    CustodianRequestsRepo.Default,
    Custody.Default,
    AssertionVerifier.Default
  ])
)

/** The silicons area: creation and login, custody, keys and identity tokens. */
export const SiliconsLive = Layer.mergeAll(
  SiliconCreateAndLoginLive,
  CustodianRequestsLive,
  MySiliconsLive,
  SiliconKeysLive,
  SiliconIdentityLive
)
