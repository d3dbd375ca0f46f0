import { Effect, Either, Option } from "effect"
import { parseAccountId } from "../accounts/AccountId.ts"
import { isCarbonRow } from "../accounts/AccountRow.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import { normalizeEmail } from "@platform/verification-codes"
import { validationFailed } from "../accounts/NewCarbon.ts"
import { CustodianNotFound } from "./errors.ts"

/** The Carbon a custodian request names: an account, or an email no account has verified yet. */
export interface CustodianAddress {
  readonly toUuid: string | null
  /** Set when named by email (then always shown masked), whether or not an account holds it. */
  readonly toEmail: string | null
}

/**
 * Reads `custodian` (POST /v1/silicons) or `to` (transfers): a `c:` id of an
 * active Carbon (else 404 custodian_not_found), or an email address.
 */
export const resolveCustodian = (field: string, input: string) =>
  Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const contacts = yield* ContactsRepo
    if (input.trim().toLowerCase().startsWith("c:")) {
      const id = yield* Either.mapLeft(parseAccountId(input.trim()), () =>
        validationFailed({ [field]: "must be a c: id or an email address" }))
      const found = yield* accounts.findById(id)
      if (Option.isNone(found) || !isCarbonRow(found.value) || found.value.status !== "active") {
        return yield* new CustodianNotFound({ message: `No Carbon has the id ${input.trim().toLowerCase()}.` })
      }
      return { toUuid: found.value.uuid, toEmail: null } satisfies CustodianAddress
    }
    const email = yield* Either.mapLeft(normalizeEmail(input), () =>
      validationFailed({ [field]: "must be a c: id or an email address" }))
    // The email was normalized just above: it cannot fail validation again.
    const holder = yield* contacts.findByVerifiedEmail(email).pipe(Effect.catchTag("ValidationFailed", Effect.die))
    const toUuid = Option.isSome(holder) && holder.value.kind === "carbon" && holder.value.status === "active"
      ? holder.value.uuid
      : null
    return { toUuid, toEmail: email } satisfies CustodianAddress
  })
