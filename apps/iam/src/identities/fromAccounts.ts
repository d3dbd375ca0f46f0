import type { CarbonIdentity } from "@platform/accounts-identity-api"
import type { Identity } from "./Identity.ts"

/**
 * An active Carbon as accounts answered it, in the projection's shape. Only an active account is
 * logged in, and an active account always holds an id (only a deleted one gives it up).
 */
export const carbonIdentity = (carbon: CarbonIdentity & { readonly id: string }): Identity => ({
  uuid: carbon.uuid,
  id: carbon.id,
  kind: "carbon",
  display_name: carbon.display_name,
  status: carbon.status
})

/** A Carbon that may log in: active, with an id. */
export const isActiveCarbon = (carbon: CarbonIdentity): carbon is CarbonIdentity & { readonly id: string } =>
  carbon.status === "active" && carbon.id !== null
