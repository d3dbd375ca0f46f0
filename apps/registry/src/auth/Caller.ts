import { Context, type Option } from "effect"

/** Who a request is from: an account of accounts, and the credential it came with. */
export interface Caller {
  readonly uuid: string
  /** `c:…` or `si:…`; null for an account that gave its id up. */
  readonly id: string | null
  readonly kind: "carbon" | "silicon"
  readonly displayName: string
  /** A Carbon's verified emails (invitations match them); empty for a Silicon. */
  readonly verifiedEmails: ReadonlyArray<string>
  /**
   * `account`: an access token for the registry's audience; `developer`: a developer-platform token,
   * limited to the operations spec 2 lists; `development`: the development bearer (REGISTRY_DEVELOPMENT_BEARER).
   */
  readonly credential: "account" | "developer" | "development"
}

/** The caller of a route that needs one. */
export class CurrentCaller extends Context.Tag("registry/CurrentCaller")<CurrentCaller, Caller>() {}

/** The caller of a route that anyone may call: none without a token. */
export class MaybeCaller extends Context.Tag("registry/MaybeCaller")<MaybeCaller, Option.Option<Caller>>() {}
