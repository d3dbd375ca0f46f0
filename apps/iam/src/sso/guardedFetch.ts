import { checkOutboundUrl, describeOutboundError, type OutboundPolicy, publicOnlyLookup } from "@platform/outbound"
import { Either } from "effect"
import * as http from "node:http"
import * as https from "node:https"
import type * as oidc from "openid-client"

/** An identity provider's answer is refused past this many bytes (discovery, JWKS and token answers are small). */
const MAX_ANSWER_BYTES = 256 * 1024

const bodyOf = (body: oidc.CustomFetchOptions["body"]): string | undefined =>
  body === undefined || body === null ? undefined : body instanceof URLSearchParams ? body.toString() : typeof body === "string" ? body : undefined

/**
 * openid-client's `customFetch` through IAM's outbound guard: every URL the provider names (its
 * discovery document, JWKS, token endpoint) is checked as a configured URL is, connected only to the
 * addresses the guard let through (the same lookup answers check and connection), no agent, no redirect,
 * a size cap; openid-client's own timeout aborts it.
 */
export const guardedFetch = (policy: OutboundPolicy): oidc.CustomFetch => {
  const lookup = publicOnlyLookup(policy)
  return (url, options) =>
    new Promise<Response>((resolve, reject) => {
      const checked = checkOutboundUrl(url, policy)
      if (Either.isLeft(checked)) return reject(new Error(`the provider's URL ${checked.left}`))
      const target = checked.right
      const body = bodyOf(options.body)
      const outgoing = (target.protocol === "https:" ? https : http).request(target, {
        method: options.method,
        headers: { ...options.headers, ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }) },
        lookup,
        agent: false,
        ...(options.signal === undefined ? {} : { signal: options.signal })
      })
      outgoing.on("response", (incoming) => {
        const chunks: Array<Buffer> = []
        let received = 0
        incoming.on("data", (chunk: Buffer) => {
          received += chunk.length
          if (received > MAX_ANSWER_BYTES) {
            outgoing.destroy()
            reject(new Error(`the provider's answer is larger than ${MAX_ANSWER_BYTES} bytes`))
          } else chunks.push(chunk)
        })
        incoming.on("end", () => {
          const headers = new Headers()
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (typeof value === "string") headers.set(name, value)
            else if (Array.isArray(value)) value.forEach((entry) => headers.append(name, entry))
          }
          const status = incoming.statusCode ?? 502
          const nullBody = status === 204 || status === 304
          resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers }))
        })
        incoming.on("error", (error) => reject(new Error(describeOutboundError(error))))
      })
      outgoing.on("error", (error) => reject(new Error(describeOutboundError(error))))
      outgoing.end(body)
    })
}
