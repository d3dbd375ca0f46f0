import { clientAddress, noStore } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { oauthParameters, requirePublicClient } from "@platform/oauth"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { Duration, Effect, Layer } from "effect"
import { AccountsApi } from "../api.ts"
import { FIRST_PARTY_CLIENT_ID } from "../oauth/AccessTokens.ts"
import { AccountsConfig } from "../config.ts"
import { DeviceCodesRepo } from "./DeviceCodesRepo.ts"
import { authorizationsPerApp, authorizationsPerIp, CLIENT_LABEL_LIMIT, DEVICE_CODE_LIFETIME } from "./policy.ts"
import { displayUserCode } from "./userCode.ts"
import { compiledGroup, now } from "@platform/service"
import { DeviceApprovalLive } from "./ApprovalHttp.ts"

/** The account site's page where a person types the user code (served on the public origin, not by this API). */
export const VERIFICATION_PAGE_PATH = "/device"

const clientLabelOf = (parameters: ReadonlyMap<string, string>): string | null => {
  const label = parameters.get("client_label")
  return label === undefined || label === "" ? null : label.slice(0, CLIENT_LABEL_LIMIT)
}

const DeviceAuthorizationLive = compiledGroup(AccountsApi, "deviceAuthorization", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const limiter = yield* RateLimiter
    const codes = yield* DeviceCodesRepo
    const verificationUri = `${config.publicUrl}${VERIFICATION_PAGE_PATH}`

    return handlers.handleRaw("authorize", ({ request }) =>
      Effect.gen(function*() {
        // The device code is a new secret: never cached, and kept for an idempotent replay 10 minutes only.
        yield* noStore
        yield* carriesNewSecret
        yield* enforceRateLimit(limiter, authorizationsPerIp, yield* clientAddress(config.trustProxy))
        const parameters = yield* oauthParameters(request.headers["content-type"], yield* Effect.orDie(request.text))
        yield* requirePublicClient(FIRST_PARTY_CLIENT_ID, request.headers["authorization"], parameters)
        yield* enforceRateLimit(limiter, authorizationsPerApp, FIRST_PARTY_CLIENT_ID)
        const issued = yield* codes.create({
          clientId: FIRST_PARTY_CLIENT_ID,
          clientLabel: clientLabelOf(parameters),
          now: yield* now
        })
        const userCode = displayUserCode(issued.userCode)
        return {
          device_code: issued.deviceCode,
          user_code: userCode,
          verification_uri: verificationUri,
          verification_uri_complete: `${verificationUri}?user_code=${userCode}`,
          expires_in: Math.round(Duration.toSeconds(DEVICE_CODE_LIFETIME)),
          interval: issued.intervalSeconds
        }
      }), { uninterruptible: true })
  })).pipe(Layer.provide(DeviceCodesRepo.Default))

/** The device area: the device authorization endpoint and the Carbon's approval. */
export const DeviceLive = Layer.mergeAll(DeviceAuthorizationLive, DeviceApprovalLive)
