import { DEVELOPER_APP_ID, FIRST_PARTY_APP_ID } from "../apps/AppId.ts"
import { type AccessTokenClaims, audiencesOf } from "../oauth/AccessTokens.ts"

const DEVELOPER_READS = new Set(["/v1/me", "/v1/session", "/v1/me/owned-apps"])

/**
 * Spec 1, client developer: its tokens act only on GET /v1/me, GET
 * /v1/session, GET /v1/me/owned-apps and the author routes under
 * /v1/apps/{app_id}; elsewhere they are token_wrong_audience.
 */
export const developerTokenRoute = (method: string, url: string): boolean => {
  const path = url.split("?", 1)[0]!
  return (method === "GET" && DEVELOPER_READS.has(path)) || path.startsWith("/v1/apps/")
}

/** A first-party token anywhere; a client developer's token on its routes only. */
export const accountAudienceAccepted = (claims: AccessTokenClaims, developerRoute: boolean): boolean => {
  const audiences = audiencesOf(claims)
  return audiences.includes(FIRST_PARTY_APP_ID) || (developerRoute && audiences.includes(DEVELOPER_APP_ID))
}
