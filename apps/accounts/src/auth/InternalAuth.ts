import { internalTokenCheck } from "@platform/auth"
import { InternalAuth, internalTokenRefusals } from "@platform/accounts-identity-api"
import { Effect, Layer } from "effect"
import { AccountsConfig } from "../config.ts"

/**
 * Accounts' internal routes (the registry's app sync, IAM's identities): `Authorization: Bearer
 * <ACCOUNTS_INTERNAL_TOKEN>`. The middleware's tag and refusals are in the identity API's package,
 * whose routes declare them.
 */
export const InternalAuthLive = Layer.effect(
  InternalAuth,
  Effect.map(AccountsConfig, (config) => internalTokenCheck(config.internalToken, internalTokenRefusals))
)
