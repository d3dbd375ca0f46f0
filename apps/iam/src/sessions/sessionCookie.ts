import { constantTimeEqual } from "@platform/crypto"
import { Option } from "effect"
import { createHmac } from "node:crypto"

/** What the cookie's signature is over and under which key label; a new format takes a new label. */
const KEY_LABEL = "iam_session cookie signing key v1"
const VALUE_PREFIX = "v1."

/**
 * The `iam_session` cookie's value: `v1.<session id>.<HMAC-SHA256 of the session id>` (base64url),
 * under a key derived from IAM_SECRET_KEY for this purpose alone. It names the refresh family and
 * nothing else: it is good exactly as long as that session is open (decisions.md, "Browser session cookie").
 */
export const makeSessionCookieSigner = (secretKey: Uint8Array) => {
  const key = createHmac("sha256", secretKey).update(KEY_LABEL).digest()
  const signatureOf = (sessionId: string) => createHmac("sha256", key).update(sessionId).digest("base64url")
  return {
    sign: (sessionId: string): string => `${VALUE_PREFIX}${sessionId}.${signatureOf(sessionId)}`,
    /** The session id of a value this key signed; none for anything else. */
    read: (value: string): Option.Option<string> => {
      if (!value.startsWith(VALUE_PREFIX)) return Option.none()
      const rest = value.slice(VALUE_PREFIX.length)
      const dot = rest.lastIndexOf(".")
      if (dot <= 0) return Option.none()
      const sessionId = rest.slice(0, dot)
      return constantTimeEqual(rest.slice(dot + 1), signatureOf(sessionId)) ? Option.some(sessionId) : Option.none()
    }
  } as const
}
