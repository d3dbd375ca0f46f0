import { ValidationFailed } from "@platform/http"
import { normalizeEmail, normalizePhone } from "@platform/verification-codes"
import { Effect, Either } from "effect"

/** How a person names themself to log in or sign up: an email, a phone number (E.164) or, to log in, a `c:` id. */
export type NamedIdentity =
  | { readonly field: "email"; readonly email: string }
  | { readonly field: "phone_number"; readonly phone: string }
  | { readonly field: "carbon_id"; readonly carbonId: string }

export interface IdentityFields {
  readonly email?: string | undefined
  readonly phone_number?: string | undefined
  readonly carbon_id?: string | undefined
}

const invalid = (field: string, problem: string, message: string) =>
  new ValidationFailed({ message, details: { fields: { [field]: problem } } })

/** Exactly one of the fields `allowed`, normalized (email lower-cased, phone in E.164 as sent). */
export const namedIdentity = (
  fields: IdentityFields,
  allowed: ReadonlyArray<keyof IdentityFields>
): Effect.Effect<NamedIdentity, ValidationFailed> => {
  const sent = allowed.filter((field) => fields[field] !== undefined)
  const only = `send exactly one of ${allowed.join(", ")}`
  if (sent.length !== 1) return Effect.fail(invalid(sent[1] ?? allowed[0]!, only, `Send exactly one of ${allowed.join(", ")}.`))
  const field = sent[0]!
  const value: string = fields[field] ?? ""
  switch (field) {
    case "email":
      return Either.match(normalizeEmail(value), {
        onLeft: (problem) => Effect.fail(invalid(field, problem, "The email is not valid.")),
        onRight: (email) => Effect.succeed({ field, email })
      })
    case "phone_number":
      return Either.match(normalizePhone(value), {
        onLeft: (problem) => Effect.fail(invalid(field, problem, "The phone number is not valid.")),
        onRight: (phone) => Effect.succeed({ field, phone })
      })
    case "carbon_id":
      return value.toLowerCase().startsWith("c:")
        ? Effect.succeed({ field, carbonId: value })
        : Effect.fail(invalid(field, "must be a Carbon id such as c:ada", "The carbon_id is not a c: id."))
  }
}
