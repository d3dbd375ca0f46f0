import { createHash } from "node:crypto"

/**
 * The headers of every page of a service's site. Scripts and styles come from
 * our own origin only; an inline style (the account site's app colors), when a
 * page has one, is allowed by its hash. form-action is left open on purpose: a form's answer may redirect to the
 * app's redirect_uri or an identity provider, and Chromium applies form-action
 * to redirects. The referrer policy is strict-origin, not no-referrer: with no-referrer Chromium
 * sends `Origin: null` on a form's POST, which the Origin check must refuse.
 */
export const pageHeaders = (inlineStyle?: string): Record<string, string> => {
  const styleHash = inlineStyle === undefined ? undefined : createHash("sha256").update(inlineStyle).digest("base64")
  return {
    "content-security-policy": [
      "default-src 'none'",
      "script-src 'self'",
      styleHash === undefined ? "style-src 'self'" : `style-src 'self' 'sha256-${styleHash}'`,
      "img-src 'self' data: https:",
      "connect-src 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'"
    ].join("; "),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin",
    "cache-control": "no-store"
  }
}
