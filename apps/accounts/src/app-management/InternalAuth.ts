import { HttpApiMiddleware } from "@effect/platform"
import { internalTokenCheck, internalTokenFailure } from "@platform/auth"
import { Effect, Layer } from "effect"
import { AccountsConfig } from "../config.ts"
import { InternalApiDisabled, InternalTokenRequired, InvalidInternalToken } from "../apps/errors.ts"

const refusals = { required: InternalTokenRequired, invalid: InvalidInternalToken, disabled: InternalApiDisabled }

/** Registry-only internal routes: `Authorization: Bearer <ACCOUNTS_INTERNAL_TOKEN>`. */
export class InternalAuth extends HttpApiMiddleware.Tag<InternalAuth>()("InternalAuth", {
  failure: internalTokenFailure(refusals)
}) {}

export const InternalAuthLive = Layer.effect(
  InternalAuth,
  Effect.map(AccountsConfig, (config) => internalTokenCheck(config.internalToken, refusals))
)
