import { HttpClient, HttpClientResponse } from "@effect/platform"
import { Clock, Duration, Effect, Either, Option, Schema, SynchronizedRef } from "effect"
import * as jose from "jose"
import { JwksUnavailable } from "./accessTokenErrors.ts"

export interface RemoteJwksOptions {
  readonly url: string
  /** Least time between two fetches, however many unknown `kid`s arrive (default 30 seconds). */
  readonly refetchCooldown?: Duration.DurationInput
  /** Keys fetched longer ago than this are fetched again before use, so a withdrawn key stops verifying (default 10 minutes). */
  readonly maxAge?: Duration.DurationInput
  /** How long one fetch may take (default 5 seconds). */
  readonly timeout?: Duration.DurationInput
}

export type KeyLookup = jose.JWTVerifyGetKey

/** The issuer's published keys, as far as they were read. */
export interface RemoteJwks {
  /**
   * The keys to verify a token whose header names `kid`: none when the issuer does not
   * publish that kid. An unknown kid fetches the JWKS again (a rotation), at most once per
   * cooldown; fails only when the keys cannot be read and none that would do are at hand.
   */
  readonly keysFor: (kid: string) => Effect.Effect<Option.Option<KeyLookup>, JwksUnavailable>
}

// Only public members are kept, and a key this decoder does not understand is skipped rather
// than failing the whole set (an issuer may publish a new kind of key before we verify with it).
const ExactString = Schema.optionalWith(Schema.String, { exact: true })
const PublishedKey = Schema.Struct({
  kty: Schema.String,
  kid: Schema.String,
  alg: ExactString,
  use: ExactString,
  crv: ExactString,
  x: ExactString,
  y: ExactString,
  n: ExactString,
  e: ExactString
})
const JwksDocument = Schema.Struct({ keys: Schema.Array(Schema.Unknown) })
const decodeKey = Schema.decodeUnknownOption(PublishedKey)

interface LoadedKeys {
  readonly kids: ReadonlySet<string>
  readonly lookup: KeyLookup
  readonly fetchedAt: number
}

interface State {
  readonly loaded: LoadedKeys | undefined
  readonly lastAttemptAt: number | undefined
  /** Why the last fetch failed; cleared by the next one that succeeds. */
  readonly lastFailure: JwksUnavailable | undefined
}

export const makeRemoteJwks = (options: RemoteJwksOptions): Effect.Effect<RemoteJwks, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const cooldownMillis = Duration.toMillis(options.refetchCooldown ?? Duration.seconds(30))
    const maxAgeMillis = Duration.toMillis(options.maxAge ?? Duration.minutes(10))
    const timeout = options.timeout ?? Duration.seconds(5)
    const client = (yield* HttpClient.HttpClient).pipe(HttpClient.filterStatusOk)
    const state = yield* SynchronizedRef.make<State>({ loaded: undefined, lastAttemptAt: undefined, lastFailure: undefined })

    const fetchKeys = (now: number): Effect.Effect<LoadedKeys, JwksUnavailable> =>
      client.get(options.url, { headers: { accept: "application/json" } }).pipe(
        Effect.flatMap(HttpClientResponse.schemaBodyJson(JwksDocument)),
        Effect.timeout(timeout),
        Effect.mapError((cause) => new JwksUnavailable({ message: `The JWKS at ${options.url} could not be read (${cause._tag}).` })),
        Effect.map(({ keys }) => {
          const usable = keys.flatMap((key) => Option.toArray(decodeKey(key)))
          return {
            kids: new Set(usable.map((key) => key.kid)),
            lookup: jose.createLocalJWKSet({ keys: usable.map((key) => ({ ...key })) }),
            fetchedAt: now
          }
        })
      )

    const fresh = (current: State, kid: string, now: number): current is State & { readonly loaded: LoadedKeys } =>
      current.loaded !== undefined && current.loaded.kids.has(kid) && now - current.loaded.fetchedAt < maxAgeMillis

    // What is at hand when no fetch is made or the fetch failed: a known kid verifies with the
    // keys last read; an unknown one is unknown, unless the last fetch failed (then we cannot tell).
    const fromLoaded = (current: State, kid: string): Effect.Effect<Option.Option<KeyLookup>, JwksUnavailable> => {
      if (current.loaded !== undefined && current.loaded.kids.has(kid)) return Effect.succeed(Option.some(current.loaded.lookup))
      if (current.lastFailure !== undefined) return Effect.fail(current.lastFailure)
      return Effect.succeed(Option.none())
    }

    const reload = (current: State, kid: string) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        // Another fiber may have fetched while this one waited for the lock.
        if (fresh(current, kid, now)) return [Effect.succeed(Option.some(current.loaded.lookup)), current] as const
        const cooling = current.lastAttemptAt !== undefined && now - current.lastAttemptAt < cooldownMillis
        if (cooling) return [fromLoaded(current, kid), current] as const
        const fetched = yield* Effect.either(fetchKeys(now))
        if (Either.isLeft(fetched)) {
          yield* Effect.logWarning(fetched.left.message)
          const next: State = { ...current, lastAttemptAt: now, lastFailure: fetched.left }
          return [fromLoaded(next, kid), next] as const
        }
        const next: State = { loaded: fetched.right, lastAttemptAt: now, lastFailure: undefined }
        return [fromLoaded(next, kid), next] as const
      })

    const keysFor = (kid: string) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const current = yield* SynchronizedRef.get(state)
        if (fresh(current, kid, now)) return Option.some(current.loaded.lookup)
        // Fetches are serialized: verifications that find their key keep going while one fetch runs.
        return yield* Effect.flatten(SynchronizedRef.modifyEffect(state, (held) => reload(held, kid)))
      })

    return { keysFor }
  })
