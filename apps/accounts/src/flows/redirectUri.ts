/**
 * Whether a redirect_uri (already trimmed) is one the app registered. The
 * comparison is on the text as sent, never on a parsed and normalized URL:
 * `HTTP://Host`, `:443`, `/x/../cb` and the like are other URIs. A registered
 * `http://localhost…` or `http://127.0.0.1…` URI also matches the same text
 * with any port (RFC 8252 §7.3), and nothing else may differ.
 */
const LOOPBACK = /^http:\/\/(localhost|127\.0\.0\.1)(?::(\d{1,5}))?([/?].*)?$/

const loopbackParts = (uri: string) => {
  const match = LOOPBACK.exec(uri)
  if (match === null) return undefined
  const port = match[2]
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535 || port.startsWith("0"))) return undefined
  return { host: match[1]!, rest: match[3] ?? "" }
}

export const isRegisteredRedirectUri = (registered: ReadonlyArray<string>, uri: string): boolean =>
  registered.some((candidate) => {
    if (candidate === uri) return true
    const mine = loopbackParts(candidate)
    if (mine === undefined) return false
    const theirs = loopbackParts(uri)
    return theirs !== undefined && theirs.host === mine.host && theirs.rest === mine.rest
  })

/** The redirect_uri with these parameters added to its query (the URI itself is kept byte for byte). */
export const withQuery = (redirectUri: string, parameters: ReadonlyArray<readonly [string, string]>): string => {
  const query = new URLSearchParams(parameters.map(([name, value]): [string, string] => [name, value])).toString()
  return `${redirectUri}${redirectUri.includes("?") ? "&" : "?"}${query}`
}
