import { Either, ParseResult, Schema } from "effect"
import { normalizeEmail, normalizePhone } from "@platform/verification-codes"

/**
 * A path segment holding an address, decoded to its stored form: `Ada@Example.com` and
 * `ada%40example.com` name the same email, `%2B14155550100` and `+14155550100` the same
 * phone. Clients should percent-encode the segment (encodeURIComponent); `@` and `+`
 * are also accepted bare, as RFC 3986 allows them in a path. A malformed one is 400 invalid_path.
 */
const normalizedBy = (normalize: (input: string) => Either.Either<string, string>, description: string) =>
  Schema.transformOrFail(Schema.String, Schema.String, {
    strict: true,
    decode: (input, _, ast) =>
      Either.match(normalize(input), {
        onLeft: (problem) => ParseResult.fail(new ParseResult.Type(ast, input, problem)),
        onRight: ParseResult.succeed
      }),
    encode: ParseResult.succeed
  }).annotations({ description })

export const EmailInPath = Schema.Struct({
  email: normalizedBy(normalizeEmail, "The email address, percent-encoded (ada%40example.com); any case")
})

export const PhoneInPath = Schema.Struct({
  phone: normalizedBy(normalizePhone, "The phone number in E.164, percent-encoded (%2B14155550100)")
})
