import { HttpApiMiddleware } from "@effect/platform"
import { internalTokenFailure } from "@platform/auth"
import { InternalApiDisabled, InternalTokenRequired, InvalidInternalToken } from "./errors.ts"

/** The three refusals of accounts' internal routes, for `internalTokenCheck` on the accounts side. */
export const internalTokenRefusals = {
  required: InternalTokenRequired,
  invalid: InvalidInternalToken,
  disabled: InternalApiDisabled
}

/**
 * Accounts' internal routes: `Authorization: Bearer <ACCOUNTS_INTERNAL_TOKEN>`. Accounts provides it
 * with `internalTokenCheck(token, internalTokenRefusals)`; a client sends the header itself
 * (`AccountsDirectory.layer` does).
 */
export class InternalAuth extends HttpApiMiddleware.Tag<InternalAuth>()("@platform/accounts-identity-api/InternalAuth", {
  failure: internalTokenFailure(internalTokenRefusals)
}) {}
