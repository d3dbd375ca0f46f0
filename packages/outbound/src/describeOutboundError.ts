/** What a failed outbound request's error says, in words safe to store and show (never a secret). */
export const describeOutboundError = (error: unknown): string => {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined
  if (code === "ERR_OUTBOUND_REFUSED" && typeof error === "object" && error !== null && "reason" in error) {
    return `refused by the outbound guard: ${String(error.reason)}`
  }
  if (code === "ECONNREFUSED") return "connection refused"
  if (code === "ENOTFOUND") return "the host name did not resolve"
  return code === undefined ? "the request failed" : `the request failed (${code})`
}
