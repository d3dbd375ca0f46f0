import { Either } from "effect"
import { isSupportedCountry, parsePhoneNumberFromString } from "libphonenumber-js/min"

/** The two kinds of contact address an account verifies, and codes are sent to. */
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
 * dots, dashes and parentheses between digits are dropped. A number without
 * its `+` country code is read as a national number of `country` (ISO 3166-1
 * alpha-2) when one is given and the number is valid there; otherwise it is
 * refused, never guessed.
 */
export const normalizePhone = (input: string, country?: string): Either.Either<string, string> => {
  const phone = input.trim().replace(SEPARATORS, "")
  if (E164.test(phone)) return Either.right(phone)
  if (country === undefined || phone.startsWith("+")) {
    return Either.left("must be a phone number in international form, such as +14155550100")
  }
  const region = country.toUpperCase()
  if (!isSupportedCountry(region)) return Either.left(`country ${region} has no phone numbering plan we know`)
  const parsed = parsePhoneNumberFromString(input, region)
  return parsed !== undefined && parsed.isValid() && E164.test(parsed.number)
    ? Either.right(parsed.number)
    : Either.left(`must be a phone number of ${region}, or in international form such as +14155550100`)
}

export const normalizeAddress = (channel: ContactChannel, input: string): Either.Either<string, string> =>
  channel === "email" ? normalizeEmail(input) : normalizePhone(input)
