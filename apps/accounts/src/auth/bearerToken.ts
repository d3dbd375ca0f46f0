/** RFC 6750 §2.1: `Bearer <b64token>`, the scheme in any case; undefined when the header is not that. */
export const bearerToken = (authorization: string): string | undefined =>
  /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization.trim())?.[1]
