/** Client credentials from an `Authorization: Basic` header. */
export interface BasicCredentials {
  readonly clientId: string
  readonly secret: string
}

const formDecode = (value: string): string | undefined => {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "))
  } catch {
    return undefined
  }
}

/**
 * Reads `Basic base64(id:secret)`; RFC 6749 §2.3.1 form-encodes both parts
 * before base64, so they are decoded here. Undefined when the header is not
 * Basic or is malformed. `split: "last"` splits at the last colon instead of
 * the first, for ids that hold a colon themselves (`si:robot`) beside secrets
 * that never do.
 */
export const parseBasic = (authorization: string, split: "first" | "last" = "first"): BasicCredentials | undefined => {
  const match = /^Basic +([A-Za-z0-9+/]+=*)$/i.exec(authorization.trim())
  if (match === null) return undefined
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8")
  const colon = split === "first" ? decoded.indexOf(":") : decoded.lastIndexOf(":")
  if (colon <= 0) return undefined
  const clientId = formDecode(decoded.slice(0, colon))
  const secret = formDecode(decoded.slice(colon + 1))
  return clientId === undefined || secret === undefined ? undefined : { clientId, secret }
}

/** The `Authorization` value for client credentials: both parts form-encoded, then base64 (RFC 6749 §2.3.1); parseBasic reads it back. */
export const basicAuthorization = (clientId: string, secret: string): string => {
  const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+")
  return `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(secret)}`).toString("base64")}`
}
