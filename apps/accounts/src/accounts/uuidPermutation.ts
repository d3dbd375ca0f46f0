/**
 * The n-th account uuid (spec 1, Conventions: a-z A-Z 0-9, case-sensitive;
 * 3 characters until every 3-character value is used, then 4; never reused).
 *
 * Indices 0 … 62^3-1 map to the 3-character uuids, the next 62^4 to the
 * 4-character ones, and so on. Within one length the index's base-62 digits
 * go through a fixed bijection (a digit-wise Feistel network: each step adds
 * to one digit, modulo 62, a hash of the other digits, which is undone by
 * subtracting it), so consecutive indices give unrelated-looking uuids while
 * two indices never give the same uuid.
 *
 * FROZEN: the alphabet, the round count and the hash constants decide which
 * uuid every index has already produced; changing any of them would hand out
 * uuids again.
 */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const BASE = 62
const ROUNDS = 4
const KEY = 0x5ac3_01d5

export const MIN_UUID_LENGTH = 3
/** 62^8 indices stay far below 2^53; nothing longer will be needed. */
export const MAX_UUID_LENGTH = 8

/** How many uuids of each length exist: 62^length. */
export const uuidsOfLength = (length: number): number => BASE ** length

/** The first index whose uuid has `length` characters. */
export const firstIndexOfLength = (length: number): number => {
  let offset = 0
  for (let shorter = MIN_UUID_LENGTH; shorter < length; shorter++) offset += uuidsOfLength(shorter)
  return offset
}

const mix = (value: number): number => {
  let h = value | 0
  h = Math.imul(h ^ (h >>> 16), 0x7feb_352d)
  h = Math.imul(h ^ (h >>> 15), 0x846c_a68b)
  return (h ^ (h >>> 16)) >>> 0
}

/** A hash of every digit but `position`, so that the step at `position` can be undone. */
const roundValue = (digits: ReadonlyArray<number>, round: number, position: number): number => {
  let h = mix(KEY ^ Math.imul(round + 1, 0x9e37_79b9) ^ Math.imul(position + 1, 0x85eb_ca6b) ^ digits.length)
  digits.forEach((digit, index) => {
    if (index !== position) h = mix(h ^ Math.imul(digit + 1, index + 0x27d4_eb2f))
  })
  return h % BASE
}

export const permuteDigits = (digits: ReadonlyArray<number>): Array<number> => {
  const out = [...digits]
  for (let round = 0; round < ROUNDS; round++) {
    for (let position = 0; position < out.length; position++) {
      out[position] = (out[position]! + roundValue(out, round, position)) % BASE
    }
  }
  return out
}

export const unpermuteDigits = (digits: ReadonlyArray<number>): Array<number> => {
  const out = [...digits]
  for (let round = ROUNDS - 1; round >= 0; round--) {
    for (let position = out.length - 1; position >= 0; position--) {
      out[position] = (out[position]! - roundValue(out, round, position) + BASE) % BASE
    }
  }
  return out
}

const toDigits = (value: number, length: number): Array<number> => {
  const digits = new Array<number>(length)
  let rest = value
  for (let position = length - 1; position >= 0; position--) {
    digits[position] = rest % BASE
    rest = Math.floor(rest / BASE)
  }
  return digits
}

const fromDigits = (digits: ReadonlyArray<number>): number => digits.reduce((value, digit) => value * BASE + digit, 0)

const lengthOfIndex = (index: number): number => {
  for (let length = MIN_UUID_LENGTH; length <= MAX_UUID_LENGTH; length++) {
    if (index < firstIndexOfLength(length) + uuidsOfLength(length)) return length
  }
  throw new RangeError(`uuid index ${index} is beyond ${MAX_UUID_LENGTH}-character uuids`)
}

/** The uuid of allocation number `index` (0, 1, 2, …). */
export const uuidAt = (index: number): string => {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`uuid index must be a whole number >= 0, got ${index}`)
  const length = lengthOfIndex(index)
  const digits = permuteDigits(toDigits(index - firstIndexOfLength(length), length))
  return digits.map((digit) => ALPHABET[digit]).join("")
}

const UUID = new RegExp(`^[A-Za-z0-9]{${MIN_UUID_LENGTH},${MAX_UUID_LENGTH}}$`)

/** Whether `text` has the form of an account uuid. */
export const isUuidShaped = (text: string): boolean => UUID.test(text)

/** The allocation number that produced `uuid`: the inverse of `uuidAt`. */
export const indexOfUuid = (uuid: string): number => {
  if (!isUuidShaped(uuid)) throw new RangeError(`not a uuid: ${JSON.stringify(uuid)}`)
  const digits = unpermuteDigits([...uuid].map((char) => ALPHABET.indexOf(char)))
  return firstIndexOfLength(uuid.length) + fromDigits(digits)
}
