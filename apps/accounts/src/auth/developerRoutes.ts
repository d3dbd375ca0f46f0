import { DEVELOPER_APP_ID, FIRST_PARTY_APP_ID } from "../apps/AppId.ts"
import { type AccessTokenClaims, audiencesOf } from "../oauth/AccessTokens.ts"

const DEVELOPER_READS = new Set(["/v1/me", "/v1/session", "/v1/me/owned-apps"])
/** Reads a developer token may make only when its sign-in was granted the scope (spec 2: verified emails need email). */
const DEVELOPER_SCOPED_READS: ReadonlyMap<string, string> = new Map([["/v1/me/emails", "email"]])

/** Whether a client developer's token may act on a route, and the scope it must carry there. */
export type DeveloperRoute = { readonly allowed: false } | { readonly allowed: true; readonly scope: string | undefined }

/**
 * Spec 1, client developer: its tokens act only on GET /v1/me, GET /v1/session, GET
 * /v1/me/owned-apps, the lookups under /v1/accounts/, GET /v1/me/emails (with the email scope:
 * the developer platform's GET /me reads verified emails there) and the author routes under
 * /v1/apps/{app_id}; elsewhere they are token_wrong_audience.
 */
export const developerTokenRoute = (method: string, url: string): DeveloperRoute => {
  const path = url.split("?", 1)[0]!
  if (path.startsWith("/v1/apps/")) return { allowed: true, scope: undefined }
  if (method !== "GET") return { allowed: false }
  if (DEVELOPER_READS.has(path) || path.startsWith("/v1/accounts/")) return { allowed: true, scope: undefined }
  const scope = DEVELOPER_SCOPED_READS.get(path)
  return scope === undefined ? { allowed: false } : { allowed: true, scope }
}

/** A first-party token anywhere; a client developer's token on its routes only, with the scope a route needs. */
export const accountAudienceAccepted = (claims: AccessTokenClaims, route: DeveloperRoute): boolean => {
  const audiences = audiencesOf(claims)
  if (audiences.includes(FIRST_PARTY_APP_ID)) return true
  if (!route.allowed || !audiences.includes(DEVELOPER_APP_ID)) return false
  return route.scope === undefined || (claims.scope ?? "").split(" ").includes(route.scope)
}
