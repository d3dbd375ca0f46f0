import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { Effect } from "effect"

/**
 * scrypt cost for secrets checked by an online login endpoint.
 * N=2^15, r=8 needs 128·N·r = 32 MiB and about 50-100 ms of one core per check: costly for
 * an offline attacker holding the hashes, yet cheap enough for a login request. Node runs
 * scrypt on the libuv pool (4 threads by default), which caps concurrent memory near 128 MiB.
 */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const

const SALT_BYTES = 16
const HASH_BYTES = 32
const ALGORITHM = "scrypt"

// Bounds for parameters read back from storage, so a corrupted row cannot ask for unbounded work.
const MAX_N = 2 ** 20
const MAX_R = 32
const MAX_P = 16

interface ScryptHash {
  readonly N: number
  readonly r: number
  readonly p: number
  readonly salt: Buffer
  readonly hash: Buffer
}

/** Hashes a low-entropy secret to a self-describing string: `scrypt$N$r$p$salt$hash` (base64url). */
export const hashSecret = (secret: string): Effect.Effect<string> =>
  Effect.gen(function*() {
    const salt = randomBytes(SALT_BYTES)
    const hash = yield* derive(secret, { ...SCRYPT_PARAMS, salt, hashBytes: HASH_BYTES })
    return format({ ...SCRYPT_PARAMS, salt, hash })
  })

/**
 * Whether `secret` matches a string made by `hashSecret`, compared in constant time.
 * A stored value that is not such a string is corrupted data, a defect rather than a wrong secret.
 */
export const verifySecret = (secret: string, stored: string): Effect.Effect<boolean> =>
  Effect.gen(function*() {
    const parsed = parse(stored)
    if (parsed === undefined) {
      return yield* Effect.dieMessage("verifySecret: stored value is not a valid scrypt hash")
    }
    const candidate = yield* derive(secret, { ...parsed, hashBytes: parsed.hash.length })
    return timingSafeEqual(candidate, parsed.hash)
  })

// A stored hash no secret can match in practice; made lazily so importing the module costs nothing.
let dummyHash: string | undefined
const getDummyHash = (): string =>
  (dummyHash ??= format({ ...SCRYPT_PARAMS, salt: randomBytes(SALT_BYTES), hash: randomBytes(HASH_BYTES) }))

/**
 * Spends the same work as `verifySecret` against a real hash and returns false.
 * Used when the account is unknown, so that answer takes as long as a wrong secret.
 */
export const verifyAgainstDummy = (secret: string): Effect.Effect<false> =>
  Effect.as(verifySecret(secret, getDummyHash()), false as const)

const derive = (
  secret: string,
  params: { readonly N: number; readonly r: number; readonly p: number; readonly salt: Buffer; readonly hashBytes: number }
): Effect.Effect<Buffer> =>
  Effect.async<Buffer>((resume) => {
    scrypt(
      // Unicode-equivalent spellings of one secret (composed or decomposed accents) hash alike.
      secret.normalize("NFC"),
      params.salt,
      params.hashBytes,
      { N: params.N, r: params.r, p: params.p, maxmem: 2 * 128 * params.N * params.r * params.p },
      (error, derived) => resume(error === null ? Effect.succeed(derived) : Effect.die(error))
    )
  })

const format = (h: ScryptHash): string =>
  [ALGORITHM, h.N, h.r, h.p, h.salt.toString("base64url"), h.hash.toString("base64url")].join("$")

const parse = (stored: string): ScryptHash | undefined => {
  const parts = stored.split("$")
  if (parts.length !== 6 || parts[0] !== ALGORITHM) return undefined
  const [, nText, rText, pText, saltText, hashText] = parts
  const N = toInteger(nText)
  const r = toInteger(rText)
  const p = toInteger(pText)
  if (N === undefined || r === undefined || p === undefined) return undefined
  if (N < 2 || N > MAX_N || (N & (N - 1)) !== 0 || r < 1 || r > MAX_R || p < 1 || p > MAX_P) return undefined
  const salt = fromBase64Url(saltText)
  const hash = fromBase64Url(hashText)
  if (salt === undefined || hash === undefined || salt.length < 8 || hash.length < 16 || hash.length > 64) {
    return undefined
  }
  return { N, r, p, salt, hash }
}

const toInteger = (text: string | undefined): number | undefined =>
  text !== undefined && /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : undefined

const fromBase64Url = (text: string | undefined): Buffer | undefined =>
  text !== undefined && /^[A-Za-z0-9_-]+$/.test(text) ? Buffer.from(text, "base64url") : undefined
