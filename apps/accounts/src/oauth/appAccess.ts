import { Either, Option } from "effect"
import type { AppAccountRow, AppSigninView } from "./AppAccountsRepo.ts"

export type AppAccessProblem = "app_disabled" | "access_removed" | "membership_inactive"

/**
 * Whether an app may still act for the account: the app is enabled, the
 * membership exists and was not removed, and the account is active.
 */
export const appAccessProblem = (row: AppAccountRow): AppAccessProblem | null =>
  row.app_status !== "active"
    ? "app_disabled"
    : row.membership_status === "access_removed"
    ? "access_removed"
    : row.membership_status === null || row.status !== "active"
    ? "membership_inactive"
    : null

/** Why an app token's sign-in no longer lets its app act. */
export type AppSigninProblem = "unknown" | "revoked" | "expired" | AppAccessProblem

/**
 * The checks userinfo and introspection make of the sign-in a token names: it exists for this app
 * and this account, is neither revoked nor past its end, and the app may still act for the account.
 */
export const liveAppSignin = (
  view: Option.Option<AppSigninView>,
  token: { readonly appId: string; readonly accountUuid: string },
  now: Date
): Either.Either<AppSigninView, AppSigninProblem> => {
  if (Option.isNone(view) || view.value.signin_client_id !== token.appId || view.value.uuid !== token.accountUuid) {
    return Either.left("unknown")
  }
  if (view.value.signin_revoked_at !== null) return Either.left("revoked")
  if (view.value.signin_expires_at.getTime() <= now.getTime()) return Either.left("expired")
  const problem = appAccessProblem(view.value)
  return problem === null ? Either.right(view.value) : Either.left(problem)
}
