import { randomInt } from "node:crypto"

/**
 * What a person types (RFC 8628 §6.1): 8 letters from 19 consonants — no
 * vowels, so no words, and none of the look-alikes 0/O, 1/I/L — about 34 bits.
 */
export const USER_CODE_ALPHABET = "BCDFGHJKMNPQRSTVWXZ"
export const USER_CODE_LENGTH = 8

const WELL_FORMED = new RegExp(`^[${USER_CODE_ALPHABET}]{${USER_CODE_LENGTH}}$`)

/** A new user code in its stored form (8 letters, upper case, no dash). */
export const randomUserCode = (): string => {
  let code = ""
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(0, USER_CODE_ALPHABET.length)]
  return code
}

/** The stored form of what was typed: case and dashes or spaces ignored; null when it cannot be a user code. */
export const normalizeUserCode = (typed: string): string | null => {
  const code = typed.toUpperCase().replace(/[\s-]/g, "")
  return WELL_FORMED.test(code) ? code : null
}

/** How a user code is shown: `WDJB-MJHT`. */
export const displayUserCode = (code: string): string => `${code.slice(0, 4)}-${code.slice(4)}`
