const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i

/**
 * RFC 6750 §2.1: `Bearer <b64token>`, the scheme in any case; undefined when the header is not that.
 * An absent header, a bare `Bearer` and an empty token are undefined too: unlike the platform's
 * bearer decoder, which does not check the scheme and yields "" when the header is missing.
 */
export const bearerToken = (authorization: string | undefined): string | undefined => {
  if (authorization === undefined) return undefined
  const token = BEARER.exec(authorization.trim())?.[1]
  return token === undefined || token === "" ? undefined : token
}
