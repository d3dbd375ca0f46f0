import { boundedGet, publicOnlyLookup } from "@platform/outbound"
import { Clock, Data, Duration, Effect, Either, Option, Schema } from "effect"
import * as jose from "jose"
import { AccountsConfig } from "../config.ts"
import { outboundPolicy } from "../silicons/newSiliconInput.ts"
import { checkIssuerUrl } from "./issuerUrl.ts"

/** Spec 1, Limits: trusted issuer keys cache and issuer fetches. */
export const ISSUER_FETCH = {
  connectTimeout: Duration.seconds(5),
  totalTimeout: Duration.seconds(10),
  maxBytes: 256 * 1024,
  keysCache: Duration.minutes(10),
  unknownKidCooldown: Duration.seconds(30)
} as const

/** Issuers whose keys one process keeps at most; past it the memo starts over. */
const ISSUER_CAPACITY = 1000

/** The issuer's keys could not be read (and none fresh enough are at hand). */
export class IssuerUnavailable extends Data.TaggedError("IssuerUnavailable")<{ readonly reason: string }> {}

export type KeyLookup = jose.JWTVerifyGetKey

const Discovery = Schema.Struct({ issuer: Schema.String, jwks_uri: Schema.String })
const Jwks = Schema.Struct({ keys: Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown })) })
const parse = <A, I>(schema: Schema.Schema<A, I>, what: string) => (body: Buffer) =>
  Either.try(() => JSON.parse(body.toString("utf8")) as unknown).pipe(
    Either.flatMap((json) => Schema.decodeUnknownEither(schema)(json)),
    Either.mapLeft(() => new IssuerUnavailable({ reason: `the ${what} is not what OpenID Discovery describes` }))
  )

// Only public members of the key types JWS uses; a private member is never kept.
const PUBLIC_MEMBERS = ["kty", "kid", "alg", "use", "crv", "x", "y", "n", "e"] as const
const publicKey = (key: Readonly<Record<string, unknown>>): jose.JWK =>
  Object.fromEntries(PUBLIC_MEMBERS.flatMap((member) => (typeof key[member] === "string" ? [[member, key[member]]] : [])))

interface LoadedKeys {
  readonly kids: ReadonlySet<string>
  readonly lookup: KeyLookup
  readonly fetchedAt: number
}

interface IssuerState {
  readonly loaded: LoadedKeys | undefined
  /** When keys that were still fresh were fetched again for an unknown kid. */
  readonly refetchedAt: number | undefined
  readonly failure: { readonly at: number; readonly error: IssuerUnavailable } | undefined
}

interface IssuerEntry {
  state: IssuerState
  readonly lock: Effect.Semaphore
}

/**
 * Outside issuers' signing keys, per process: read from the issuer's OpenID discovery document and
 * its JWKS through the outbound guard (https only, 5 s to connect, 10 s in all, 256 KB, no redirects),
 * kept 10 minutes. A kid the fresh keys do not hold fetches them again at most every 30 seconds per
 * issuer, and a failed fetch is not retried for 30 seconds either. Fetches of one issuer run one at a
 * time and every waiter looks again once it gets its turn, so concurrent misses make one fetch.
 */
export class IssuerKeys extends Effect.Service<IssuerKeys>()("accounts/IssuerKeys", {
  effect: Effect.gen(function*() {
    const config = yield* AccountsConfig
    const policy = outboundPolicy(config)
    const lookup = publicOnlyLookup(policy)
    const extraCertificates = Option.toArray(config.issuerExtraCa)
    const cacheMillis = Duration.toMillis(ISSUER_FETCH.keysCache)
    const cooldownMillis = Duration.toMillis(ISSUER_FETCH.unknownKidCooldown)
    const issuers = new Map<string, IssuerEntry>()

    const get = (url: string) =>
      boundedGet({
        url: new URL(url),
        lookup,
        connectTimeout: ISSUER_FETCH.connectTimeout,
        totalTimeout: ISSUER_FETCH.totalTimeout,
        maxBytes: ISSUER_FETCH.maxBytes,
        extraCertificates
      }).pipe(Effect.mapError((failed) => new IssuerUnavailable({ reason: `${url} ${failed.reason}` })))

    const fetchKeys = (issuer: string, at: number): Effect.Effect<LoadedKeys, IssuerUnavailable> =>
      Effect.gen(function*() {
        const discoveryUrl = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`
        const discovery = yield* Effect.flatMap(get(discoveryUrl), parse(Discovery, "discovery document"))
        if (discovery.issuer !== issuer) {
          return yield* new IssuerUnavailable({ reason: "the discovery document names another issuer" })
        }
        const jwksUri = checkIssuerUrl(discovery.jwks_uri, policy)
        if (Either.isLeft(jwksUri)) return yield* new IssuerUnavailable({ reason: `the jwks_uri ${jwksUri.left}` })
        const { keys } = yield* Effect.flatMap(get(jwksUri.right), parse(Jwks, "JWKS"))
        const published = keys.map(publicKey).filter((key) => typeof key.kty === "string")
        return {
          kids: new Set(published.flatMap((key) => (key.kid === undefined ? [] : [key.kid]))),
          lookup: jose.createLocalJWKSet({ keys: published }),
          fetchedAt: at
        }
      }).pipe(Effect.withSpan("IssuerKeys.fetch", { attributes: { issuer } }))

    const entryOf = (issuer: string): IssuerEntry => {
      const known = issuers.get(issuer)
      if (known !== undefined) return known
      if (issuers.size >= ISSUER_CAPACITY) issuers.clear()
      const made: IssuerEntry = {
        state: { loaded: undefined, refetchedAt: undefined, failure: undefined },
        lock: Effect.unsafeMakeSemaphore(1)
      }
      issuers.set(issuer, made)
      return made
    }

    const freshKeys = (state: IssuerState, at: number) =>
      state.loaded !== undefined && at - state.loaded.fetchedAt < cacheMillis ? state.loaded : undefined
    const holds = (keys: LoadedKeys, kid: string | undefined) => kid === undefined || keys.kids.has(kid)
    const within = (since: number | undefined, at: number) => since !== undefined && at - since < cooldownMillis

    /** What the state answers without a fetch, or undefined when a fetch is due. */
    const answerAt = (state: IssuerState, kid: string | undefined, at: number) => {
      const fresh = freshKeys(state, at)
      if (fresh !== undefined && holds(fresh, kid)) return Effect.succeed(Option.some(fresh.lookup))
      if (fresh !== undefined && (within(state.refetchedAt, at) || within(state.failure?.at, at))) {
        return Effect.succeed(Option.none<KeyLookup>())
      }
      if (fresh === undefined && state.failure !== undefined && within(state.failure.at, at)) {
        return Effect.fail(state.failure.error)
      }
      return undefined
    }

    /**
     * The keys to verify a token of `issuer` whose header names `kid`: none when the issuer does not
     * publish it (as far as the limits let us ask).
     */
    const keysFor = (issuer: string, kid: string | undefined): Effect.Effect<Option.Option<KeyLookup>, IssuerUnavailable> =>
      Effect.gen(function*() {
        const entry = entryOf(issuer)
        const quick = answerAt(entry.state, kid, yield* Clock.currentTimeMillis)
        if (quick !== undefined) return yield* quick
        return yield* entry.lock.withPermits(1)(Effect.gen(function*() {
          const at = yield* Clock.currentTimeMillis
          const settled = answerAt(entry.state, kid, at)
          if (settled !== undefined) return yield* settled
          const refetch = freshKeys(entry.state, at) !== undefined
          const fetched = yield* Effect.either(fetchKeys(issuer, at))
          if (Either.isLeft(fetched)) {
            yield* Effect.logWarning(`Issuer keys unavailable: ${fetched.left.reason}`)
            entry.state = { ...entry.state, failure: { at, error: fetched.left } }
            return yield* fetched.left
          }
          entry.state = { loaded: fetched.right, refetchedAt: refetch ? at : entry.state.refetchedAt, failure: undefined }
          return holds(fetched.right, kid) ? Option.some(fetched.right.lookup) : Option.none()
        }))
      })

    return { keysFor } as const
  })
}) {}
