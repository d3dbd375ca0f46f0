import type { AppAccountRow } from "./AppAccountsRepo.ts"

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
