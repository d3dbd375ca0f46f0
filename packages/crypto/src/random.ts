import { randomBytes, randomInt } from "node:crypto"

const MIN_TOKEN_BYTES = 16 // 128 bits, the floor for bearer secrets

/** A bearer secret: `prefix` followed by `bytes` random bytes in base64url (no padding). */
export const randomToken = (prefix: string, bytes = 32): string => {
  if (!Number.isInteger(bytes) || bytes < MIN_TOKEN_BYTES) {
    throw new RangeError(`randomToken needs at least ${MIN_TOKEN_BYTES} bytes (128 bits), got ${bytes}`)
  }
  return prefix + randomBytes(bytes).toString("base64url")
}

/** `length` random lowercase hexadecimal characters. */
export const randomHex = (length: number): string => {
  assertPositiveLength("randomHex", length)
  return randomBytes(Math.ceil(length / 2)).toString("hex").slice(0, length)
}

/**
 * `length` random decimal digits, each uniform over 0-9.
 * `crypto.randomInt` draws by rejection sampling, so there is no modulo bias.
 */
export const randomDigits = (length: number): string => {
  assertPositiveLength("randomDigits", length)
  let digits = ""
  for (let i = 0; i < length; i++) digits += randomInt(0, 10).toString()
  return digits
}

const assertPositiveLength = (name: string, length: number): void => {
  if (!Number.isInteger(length) || length < 1) {
    throw new RangeError(`${name} needs a positive integer length, got ${length}`)
  }
}
