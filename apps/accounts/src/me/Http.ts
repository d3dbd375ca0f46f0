import { ValidationFailed } from "@platform/http"
import { Effect, Either, Layer } from "effect"
import { AccountsRepo, type ProfileChanges } from "../accounts/AccountsRepo.ts"
import { validateDisplayName, validateDob, validateTimezone } from "../accounts/profileFields.ts"
import { AccountsApi } from "../api.ts"
import { CurrentAccount } from "../auth/CurrentAccount.ts"
import { compiledGroup, now } from "@platform/service"
import { DobImmutable } from "../silicons/errors.ts"
import { MeViews } from "../accounts/MeViews.ts"
import type { MePatch } from "./Api.ts"
import { MeViewsLive } from "../silicons/MeViewsLive.ts"
import { AccountAuthLive } from "../auth/AccountAuth.ts"
import { reportingProfileChanges } from "../events/profileChanges.ts"
import { IdChanges } from "../profile/IdChanges.ts"
import { Photos } from "../profile/Photos.ts"
import { requestMediaType } from "../profile/requestMediaType.ts"
import { requireCarbon } from "../auth/requireCarbon.ts"
import { AccountDeletion } from "./AccountDeletion.ts"
import { eventWriter } from "../events/EventWriter.ts"

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

export const MeLive = compiledGroup(AccountsApi, "me", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const events = yield* eventWriter
    const views = yield* MeViews
    const idChanges = yield* IdChanges
    const photos = yield* Photos
    const deletion = yield* AccountDeletion
    return handlers
      .handle("get", () => Effect.flatMap(CurrentAccount, (account) => views.load(account.uuid)))
      .handle("update", ({ payload }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          const current = yield* views.load(account.uuid)
          if (current.kind === "silicon" && payload.dob !== undefined && payload.dob !== current.dob) {
            return yield* new DobImmutable({ message: "A Silicon's dob is its creation date and cannot change." })
          }
          const changes = yield* validateChanges(
            current.kind === "silicon" ? { ...payload, dob: undefined } : payload,
            yield* now
          )
          yield* reportingProfileChanges(events, account.uuid, accounts.updateProfile(account.uuid, changes)).pipe(
            Effect.catchTag("SqlError", Effect.die)
          )
          return yield* views.load(account.uuid)
        }))
      .handle("changeId", ({ payload }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          const current = yield* views.load(account.uuid)
          yield* idChanges.changeId({ uuid: account.uuid, kind: current.kind }, payload.id)
          return yield* views.load(account.uuid)
        }))
      .handle("uploadPhoto", ({ payload }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          yield* photos.upload(account.uuid, yield* requestMediaType, payload)
          return yield* views.load(account.uuid)
        }))
      .handle("deletePhoto", () =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          yield* photos.remove(account.uuid)
          return yield* views.load(account.uuid)
        }))
      .handle("delete", ({ payload }) =>
        Effect.flatMap(requireCarbon, (carbon) => deletion.deleteCarbon(carbon, payload.confirm_id)))
  })).pipe(Layer.provide([
    MeViewsLive,
    AccountsRepo.Default,
    AccountAuthLive,
    IdChanges.Default,
    Photos.Default,
    AccountDeletion.Default
  ]))
