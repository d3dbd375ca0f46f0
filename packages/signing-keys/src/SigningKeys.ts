import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { decodeEncryptionKey, type EncryptionKey } from "@platform/crypto"
import { Cause, Clock, Context, Duration, Effect, Layer, Option, type Redacted, SynchronizedRef } from "effect"
import * as jose from "jose"
import { JwtRejected, SigningKeyLoadError, SigningKeysConfigError } from "./errors.ts"
import { generateSigningKey } from "./generateSigningKey.ts"
import { signCompactJws } from "./compactJws.ts"
import { buildKeySet, type KeySet } from "./KeySet.ts"
import { sealPrivateKey } from "./privateKeyCodec.ts"
import type { Jwks } from "./PublicJwk.ts"
import { SIGNING_ALGS, type SigningAlg } from "./SigningAlg.ts"
import { makeSigningKeyStore, type NewKeyRow } from "./signingKeyStore.ts"

export interface SigningKeysOptions {
  /** Base64 of 32 bytes; when set, private keys are stored AES-256-GCM encrypted. */
  readonly encryptionKey: Option.Option<Redacted.Redacted<string>>
  /** How long the loaded key set is trusted before it is read again (default 10, at most 60). */
  readonly refreshSeconds?: number
}

export interface RotatedKey {
  readonly kid: string
  readonly alg: SigningAlg
}

export interface SignJwtHeader {
  readonly typ?: string
}

const DEFAULT_REFRESH_SECONDS = 10
// Retired keys stay published this long past the longest token lifetime, to cover tokens signed
// by other processes whose cache has not yet seen the rotation; it bounds refreshSeconds.
const ROTATION_GRACE_SECONDS = 60
// Identity tokens live up to 3600 s, access and id tokens 1800 s.
const LONGEST_TOKEN_LIFETIME_SECONDS = 3600
export const PUBLISHED_AFTER_RETIREMENT = Duration.seconds(LONGEST_TOKEN_LIFETIME_SECONDS + ROTATION_GRACE_SECONDS)

export class SigningKeys extends Context.Tag("@platform/signing-keys/SigningKeys")<SigningKeys, {
  /** Signs `claims` with the active key of `alg`; the header carries alg, kid and the optional typ. */
  readonly signJwt: (alg: SigningAlg, claims: jose.JWTPayload, header?: SignJwtHeader) => Effect.Effect<string>
  /** Public keys to publish: the active ones and retired ones not past `published_until`. */
  readonly jwks: Effect.Effect<Jwks>
  /** `jwks` serialized once per refresh, for the JWKS endpoint. */
  readonly jwksJson: Effect.Effect<string>
  /** The same, read synchronously: for the pre-rendered documents served before the Effect runtime. */
  readonly currentJwksJson: () => string
  /**
   * Verifies a JWT signed by one of our published keys (header `alg` must be one we sign with);
   * fails with the reason when the signature, `iss`, `aud`, `typ` or lifetime do not hold.
   */
  readonly verifyJwt: (
    token: string,
    options: jose.JWTVerifyOptions & { readonly algorithms: ReadonlyArray<SigningAlg> }
  ) => Effect.Effect<jose.JWTVerifyResult, JwtRejected>
  /** Makes a new key per alg active at once and retires the previous ones (published for one more hour). */
  readonly rotate: Effect.Effect<ReadonlyArray<RotatedKey>, SqlError | SigningKeyLoadError>
  /** Reloads the key set now instead of waiting for the next periodic refresh. */
  readonly refresh: Effect.Effect<void, SqlError | SigningKeyLoadError>
}>() {
  /**
   * Ensures one active key per alg exists (creating them on first start), loads them, and
   * refreshes them every `refreshSeconds` in a fiber that stops with the layer.
   */
  static readonly layer = (
    options: SigningKeysOptions
  ): Layer.Layer<SigningKeys, SigningKeysConfigError | SigningKeyLoadError | SqlError, SqlClient.SqlClient> =>
    Layer.scoped(SigningKeys, makeSigningKeys(options))
}

const makeSigningKeys = (options: SigningKeysOptions) =>
  Effect.gen(function*() {
    const refreshInterval = yield* validateRefreshSeconds(options.refreshSeconds ?? DEFAULT_REFRESH_SECONDS)
    const encryptionKey = yield* decodeOptionalEncryptionKey(options.encryptionKey)
    // Without the app's name transforms: this package writes and reads snake_case itself.
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const store = makeSigningKeyStore(sql)
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const newKeyRow = (alg: SigningAlg): Effect.Effect<NewKeyRow> =>
      Effect.map(generateSigningKey(alg), (key) => ({
        kid: key.kid,
        alg,
        publicJwk: key.publicJwk,
        privateKey: sealPrivateKey(encryptionKey, key.kid, key.privateKeyPem)
      }))

    // Concurrent first starts both insert; the partial unique index keeps the first, the load reads it.
    const ensureActiveKeys = Effect.gen(function*() {
      const present = yield* store.activeAlgs
      const missing = SIGNING_ALGS.filter((alg) => !present.includes(alg))
      const created = yield* Effect.forEach(missing, newKeyRow, { concurrency: "unbounded" })
      const createdAt = yield* now
      for (const key of created) {
        const inserted = yield* store.insertActiveIfAbsent(key, createdAt)
        yield* inserted
          ? Effect.logInfo(`created ${key.alg} signing key ${key.kid}`)
          : Effect.logDebug(`another process created the ${key.alg} signing key first`)
      }
    })
    yield* ensureActiveKeys

    const load = (previous: KeySet | undefined) =>
      Effect.flatMap(now, store.loadPublished).pipe(
        Effect.flatMap((rows) => buildKeySet(rows, encryptionKey, previous))
      )
    const initial = yield* load(undefined)
    let latestJwksJson = initial.jwksJson
    const current = yield* SynchronizedRef.make(initial)
    // Serialized, so a slow refresh cannot overwrite the result of a later one.
    const refresh = SynchronizedRef.updateEffect(
      current,
      (previous) => Effect.tap(load(previous), (set) => Effect.sync(() => (latestJwksJson = set.jwksJson)))
    )

    yield* Effect.sleep(refreshInterval).pipe(
      Effect.zipRight(refresh),
      Effect.catchAllCause((cause) =>
        Effect.logWarning("signing keys refresh failed; keeping the keys loaded before", Cause.pretty(cause))
      ),
      Effect.forever,
      Effect.forkScoped
    )

    const signJwt = (alg: SigningAlg, claims: jose.JWTPayload, header?: SignJwtHeader) =>
      Effect.flatMap(SynchronizedRef.get(current), ({ active }) => {
        const { kid, privateKey } = active[alg]
        const typ = header?.typ
        return Effect.sync(() => signCompactJws(alg, privateKey, typ === undefined ? { kid } : { kid, typ }, claims))
      })

    const rotate = Effect.gen(function*() {
      const keys = yield* Effect.forEach(SIGNING_ALGS, newKeyRow, { concurrency: "unbounded" })
      const retiredAt = yield* now
      const publishedUntil = new Date(retiredAt.getTime() + Duration.toMillis(PUBLISHED_AFTER_RETIREMENT))
      yield* store.replaceActive(keys, retiredAt, publishedUntil)
      yield* refresh
      return keys.map(({ alg, kid }) => ({ kid, alg }))
    })

    const verifiers = new WeakMap<KeySet, ReturnType<typeof jose.createLocalJWKSet>>()
    const verifierOf = (set: KeySet) => {
      const existing = verifiers.get(set)
      if (existing !== undefined) return existing
      const created = jose.createLocalJWKSet({ keys: set.jwks.keys.map((key) => ({ ...key })) })
      verifiers.set(set, created)
      return created
    }
    const verifyJwt = (
      token: string,
      options: jose.JWTVerifyOptions & { readonly algorithms: ReadonlyArray<SigningAlg> }
    ) =>
      Effect.flatMap(SynchronizedRef.get(current), (set) =>
        Effect.tryPromise({
          try: () => jose.jwtVerify(token, verifierOf(set), { ...options, algorithms: [...options.algorithms] }),
          catch: (cause) =>
            new JwtRejected({
              reason: cause instanceof jose.errors.JWTExpired
                ? "expired"
                : cause instanceof jose.errors.JWTClaimValidationFailed
                ? `claim ${cause.claim} ${cause.reason}`
                : "invalid"
            })
        }))

    return SigningKeys.of({
      verifyJwt,
      signJwt,
      jwks: Effect.map(SynchronizedRef.get(current), (set) => set.jwks),
      jwksJson: Effect.map(SynchronizedRef.get(current), (set) => set.jwksJson),
      currentJwksJson: () => latestJwksJson,
      rotate,
      refresh
    })
  })

const validateRefreshSeconds = (seconds: number): Effect.Effect<Duration.Duration, SigningKeysConfigError> =>
  Number.isFinite(seconds) && seconds > 0 && seconds <= ROTATION_GRACE_SECONDS
    ? Effect.succeed(Duration.millis(seconds * 1000))
    : Effect.fail(
      new SigningKeysConfigError({
        message: `signing keys refreshSeconds must be greater than 0 and at most ${ROTATION_GRACE_SECONDS}, got ${seconds}`
      })
    )

const decodeOptionalEncryptionKey = (
  configured: Option.Option<Redacted.Redacted<string>>
): Effect.Effect<Option.Option<EncryptionKey>, SigningKeysConfigError> =>
  Option.match(configured, {
    onNone: () => Effect.succeed(Option.none()),
    onSome: (base64) =>
      decodeEncryptionKey(base64).pipe(
        Effect.map(Option.some),
        Effect.mapError((error) => new SigningKeysConfigError({ message: `signing-key ${error.message}` }))
      )
  })
