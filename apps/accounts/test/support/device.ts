import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { AccountsUnderTest } from "./AccountsUnderTest.ts"
import { fetchAnswer } from "./http.ts"

export const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"

export const form = (parameters: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(parameters).toString()
})

export const call = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))

/** POST /v1/device/authorize for the first-party client, from `ip` (the servers under test trust X-Forwarded-For). */
export const authorize = (parameters: Record<string, string> = {}, ip = "192.0.2.10") =>
  call("/v1/device/authorize", form({ client_id: "accounts", ...parameters }, { "x-forwarded-for": ip }))

/** One poll of the token endpoint with a device code. */
export const poll = (deviceCode: string) =>
  call("/v1/oauth/token", form({ grant_type: DEVICE_GRANT, client_id: "accounts", device_code: deviceCode }))

export const bearer = (token: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...init.headers, authorization: `Bearer ${token}` }
})

/** GET /v1/device/{user_code}, or POST …/approve or …/deny, as the holder of `accessToken`. */
export const lookup = (userCode: string, accessToken: string) =>
  call(`/v1/device/${encodeURIComponent(userCode)}`, bearer(accessToken))
export const decide = (userCode: string, decision: "approve" | "deny", accessToken: string) =>
  call(`/v1/device/${encodeURIComponent(userCode)}/${decision}`, bearer(accessToken, { method: "POST" }))

/** Moves a device sign-in's expiry to the past, as if its 600 seconds had gone by. */
export const expireUserCode = (userCode: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      UPDATE device_codes SET expires_at = ${new Date(Date.now() - 1000)}
      WHERE user_code = ${userCode.replace("-", "")}
    `.pipe(Effect.orDie))
