import type { ApplicationIntrospection, ApplicationTokenResponse } from "@platform/iam-app-api"
import { epochSeconds } from "@platform/service"
import type { LiveSession } from "./ApplicationSessionsRepo.ts"

/** Who a live session speaks for, as every answer about it says. */
export const subjectOf = (session: LiveSession) => ({
  sub: session.identity_uuid,
  subject_kind: session.kind,
  username: session.handle,
  org_ids: session.org_ids,
  scope: session.scopes.join(" "),
  session_id: session.session_id
})

export const tokenResponse = (
  session: LiveSession,
  tokens: { readonly accessToken: string; readonly refreshToken: string; readonly expiresIn: number }
): ApplicationTokenResponse => ({
  access_token: tokens.accessToken,
  token_type: "Bearer",
  expires_in: tokens.expiresIn,
  refresh_token: tokens.refreshToken,
  session_expires_at: session.expires_at.toISOString(),
  ...subjectOf(session)
})

export const INACTIVE = { active: false } as const

export const activeIntrospection = (
  session: LiveSession,
  tokenType: "Bearer" | "refresh_token",
  issuer: string
): ApplicationIntrospection => ({
  active: true,
  ...subjectOf(session),
  client_id: session.app_id,
  token_type: tokenType,
  iat: epochSeconds(session.token_issued_at),
  exp: epochSeconds(session.token_expires_at),
  iss: issuer
})
