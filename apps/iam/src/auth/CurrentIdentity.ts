import { Context } from "effect"
import type { IdentityKind } from "../identities/Identity.ts"

/** Who a request authenticated with a direct IAM bearer is from. */
export interface AuthenticatedIdentity {
  readonly uuid: string
  /** The accounts id: `c:…` for a Carbon, `si:…` for a Silicon. */
  readonly id: string
  readonly kind: IdentityKind
  readonly sessionId: string
}

export class CurrentIdentity extends Context.Tag("iam/CurrentIdentity")<CurrentIdentity, AuthenticatedIdentity>() {}
