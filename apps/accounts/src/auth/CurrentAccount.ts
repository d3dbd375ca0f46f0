import { Context } from "effect"

/** Who an account request is from, as the account authentication established it. */
export interface AuthenticatedAccount {
  readonly uuid: string
  readonly signinId: string
  readonly clientId: string
  /** How the request proved it: a bearer access token, or the account site's session cookie. */
  readonly via: "bearer" | "cookie"
}

export class CurrentAccount extends Context.Tag("accounts/CurrentAccount")<CurrentAccount, AuthenticatedAccount>() {}
