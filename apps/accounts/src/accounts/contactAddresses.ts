import { Either } from "effect"

export type ContactChannel = "email" | "phone"

const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/
const CONTROL = /[\u0000-\u001f\u007f]/

/** An email address as stored and compared: trimmed and lower-cased, at most 254 characters. */
export const normalizeEmail = (input: string): Either.Either<string, string> => {
  const address = input.trim().toLowerCase()
  return address.length <= 254 && EMAIL.test(address) && !CONTROL.test(address)
    ? Either.right(address)
    : Either.left("must be an email address such as name@example.com")
}

const SEPARATORS = /[\s().-]/g
const E164 = /^\+[1-9][0-9]{6,14}$/

/**
 * A phone number in E.164 (`+` then 7 to 15 digits, no leading zero). Spaces,
 * dots, dashes and parentheses between digits are dropped; a number without
 * its `+` country code is refused, never guessed.
 */
export const normalizePhone = (input: string): Either.Either<string, string> => {
  const phone = input.trim().replace(SEPARATORS, "")
  return E164.test(phone)
    ? Either.right(phone)
    : Either.left("must be a phone number in international form, such as +14155550100")
}

export const normalizeAddress = (channel: ContactChannel, input: string): Either.Either<string, string> =>
  channel === "email" ? normalizeEmail(input) : normalizePhone(input)
