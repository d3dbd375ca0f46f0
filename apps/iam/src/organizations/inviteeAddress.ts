import { ValidationFailed } from "@platform/http"
import { Either } from "effect"

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** What `to` names: a Carbon's `c:` id, or an email address (lower-cased); anything else is 422. */
export const inviteeAddress = (to: string): Either.Either<{ readonly carbonId: string } | { readonly email: string }, ValidationFailed> => {
  const trimmed = to.trim()
  const lower = trimmed.toLowerCase()
  if (lower.startsWith("c:")) return Either.right({ carbonId: trimmed })
  if (EMAIL.test(lower) && !lower.startsWith("si:")) return Either.right({ email: lower })
  return Either.left(
    new ValidationFailed({
      message: "Invite a Carbon by email address or by c: id.",
      hint: lower.startsWith("si:") ? "Silicons are not invited: create one in the organization." : undefined,
      details: { fields: { to: "must be an email address or a c: id" } }
    })
  )
}
