import { Option } from "effect"
import type { Method } from "../apps/signinConfig/fields.ts"
import type { SigninConfig } from "../apps/signinConfig/SigninConfig.ts"
import type { IdpASettings } from "../config.ts"

/**
 * Whether an enabled method can be offered on the hosted page here, from the settings and the app's
 * config alone (no secret is read): idp_a needs a client, the deployment's (managed) or the app's own
 * (byo); idp_b is not built yet.
 */
export const methodOffered = (idpA: IdpASettings, config: SigninConfig) => (method: Method): boolean => {
  switch (method) {
    case "email":
    case "phone":
      return true
    case "idp_a":
      return config.idp_a.mode === "managed"
        ? Option.isSome(idpA.client)
        : config.idp_a.client_id !== null && config.idp_a.client_secret_set
    case "idp_b":
      return false
  }
}
