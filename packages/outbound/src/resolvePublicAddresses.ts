import { Effect, Schema } from "effect"
import { lookup } from "node:dns/promises"
import { isIP } from "node:net"
import { isInternalName, normalizeHostName } from "./hostName.ts"
import { addressAllowed, loopbackAllowed, type OutboundPolicy } from "./hostPolicy.ts"

export interface ResolvedAddress {
  readonly address: string
  readonly family: number
}

/** Every address a name resolves to; tests inject their own. */
export type LookupAll = (name: string) => Promise<ReadonlyArray<ResolvedAddress>>

/** The system resolver (what node's own connections use), every address of both families. */
export const systemLookupAll: LookupAll = (name) => lookup(name, { all: true, verbatim: true })

/** A destination the outbound policy refuses at connect time. */
export class OutboundAddressRefused extends Schema.TaggedError<OutboundAddressRefused>()("OutboundAddressRefused", {
  host: Schema.String,
  reason: Schema.String
}) {
  /** The errno-style code node's socket layer reports when this ends a lookup. */
  readonly code = "ERR_OUTBOUND_REFUSED"
}

/** The name did not resolve. */
export class OutboundLookupFailed extends Schema.TaggedError<OutboundLookupFailed>()("OutboundLookupFailed", {
  host: Schema.String,
  code: Schema.String
}) {}

const refuse = (host: string, reason: string) => Effect.fail(new OutboundAddressRefused({ host, reason }))

const lookupCode = (error: unknown): string =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : "ENOTFOUND"

/**
 * The connect-time check: the addresses to connect to for a host, refused when the name is
 * internal or when ANY address it resolves to is not public (a name with one private address
 * among public ones could be made to land on the private one). Connect only to what it returns.
 */
export const resolvePublicAddresses = (
  host: string,
  policy: OutboundPolicy,
  lookupAll: LookupAll = systemLookupAll
): Effect.Effect<ReadonlyArray<ResolvedAddress>, OutboundAddressRefused | OutboundLookupFailed> =>
  Effect.gen(function*() {
    const name = normalizeHostName(host)
    if (name === undefined) return yield* refuse(host, "not a valid host name")
    const family = isIP(name)
    if (family !== 0) {
      if (!addressAllowed(name, policy)) return yield* refuse(host, `${name} is not a public address`)
      return [{ address: name, family }]
    }
    if (isInternalName(name) && !(name === "localhost" && loopbackAllowed(policy))) {
      return yield* refuse(host, `${name} is an internal name`)
    }
    const addresses = yield* Effect.tryPromise({
      try: () => lookupAll(name),
      catch: (error) => new OutboundLookupFailed({ host, code: lookupCode(error) })
    })
    if (addresses.length === 0) return yield* new OutboundLookupFailed({ host, code: "ENOTFOUND" })
    const blocked = addresses.find((resolved) => !addressAllowed(resolved.address, policy))
    if (blocked !== undefined) return yield* refuse(host, `${name} resolves to ${blocked.address}, not a public address`)
    return addresses
  })
