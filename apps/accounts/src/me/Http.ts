import { HttpApiBuilder } from "@effect/platform"
import { ValidationFailed } from "@platform/http"
import { Effect, Either, Option } from "effect"
import { type AccountRow, isCarbonRow } from "../accounts/AccountRow.ts"
import { AccountsRepo, type ProfileChanges } from "../accounts/AccountsRepo.ts"
import { carbonMe } from "../accounts/Me.ts"
import { validateDisplayName, validateDob, validateTimezone } from "../accounts/profileFields.ts"
import { AccountsApi } from "../api.ts"
import type { MePatch } from "./Api.ts"
import { CurrentAccount } from "../auth/CurrentAccount.ts"
import { now } from "../now.ts"

/** Every bad field at once, as `details.fields`; otherwise the normalized changes. */
const validateChanges = (
  patch: typeof MePatch.Type,
  now: Date
): Either.Either<ProfileChanges, ValidationFailed> => {
  const fields: Record<string, string> = {}
  const check = (field: string, value: string | undefined, validate: (value: string) => Either.Either<string, string>) => {
    if (value === undefined) return undefined
    return Either.match(validate(value), {
      onLeft: (problem) => {
        fields[field] = problem
        return undefined
      },
      onRight: (valid) => valid
    })
  }
  const changes: ProfileChanges = {
    displayName: check("display_name", patch.display_name, validateDisplayName),
    timezone: check("timezone", patch.timezone, validateTimezone),
    dob: check("dob", patch.dob, (dob) => validateDob(dob, now))
  }
  return Object.keys(fields).length > 0
    ? Either.left(new ValidationFailed({ message: "Some fields have invalid values.", details: { fields } }))
    : Either.right(changes)
}

export const MeLive = HttpApiBuilder.group(AccountsApi, "me", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const meOf = (row: Option.Option<AccountRow>) =>
      Option.isSome(row) && isCarbonRow(row.value)
        ? Effect.succeed(carbonMe(row.value))
        : Effect.dieMessage("an authenticated sign-in names no Carbon account")
    return handlers
      .handle("get", () =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          return yield* meOf(yield* accounts.findByUuid(account.uuid))
        }))
      .handle("update", ({ payload }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          const changes = yield* validateChanges(payload, yield* now)
          return yield* meOf(yield* accounts.updateProfile(account.uuid, changes))
        }))
  }))
