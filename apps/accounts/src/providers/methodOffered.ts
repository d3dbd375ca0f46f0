import { Option } from "effect"
import type { Method } from "../apps/signinConfig/fields.ts"
import type { SigninConfig } from "../apps/signinConfig/SigninConfig.ts"
import type { AccountsSettings } from "../config.ts"

/**
 * Whether an enabled method can be offered on the hosted page here, from the settings and the app's
 * config alone (no secret is read): a provider needs a client, the deployment's (managed) or the
 * app's own (byo): idp_a its client id and secret, idp_b its services, team and key ids and private key.
 */
export const methodOffered = (settings: Pick<AccountsSettings, "idpA" | "idpB">, config: SigninConfig) => (method: Method): boolean => {
  switch (method) {
    case "email":
    case "phone":
      return true
    case "idp_a":
      return config.idp_a.mode === "managed"
        ? Option.isSome(settings.idpA.client)
        : config.idp_a.client_id !== null && config.idp_a.client_secret_set
    case "idp_b":
      return config.idp_b.mode === "managed"
        ? Option.isSome(settings.idpB.client)
        : config.idp_b.services_id !== null && config.idp_b.team_id !== null && config.idp_b.key_id !== null &&
          config.idp_b.private_key_set
  }
}
