import { Effect } from "effect"
import { ApplicationsRequired, DuplicateApplications, MAX_BATCH, TooManyApplications } from "./errors.ts"

/** `a,b,c` as its ids (spaces around an id and empty items ignored). */
export const splitIds = (list: string): ReadonlyArray<string> =>
  list.split(",").map((id) => id.trim()).filter((id) => id !== "")

/** A batch names 1 to 100 applications, each once (spec 2). */
export const distinctBatch = (
  appIds: ReadonlyArray<string>
): Effect.Effect<ReadonlyArray<string>, ApplicationsRequired | TooManyApplications | DuplicateApplications> => {
  if (appIds.length === 0) {
    return Effect.fail(new ApplicationsRequired({ message: "Name at least one application (app_ids=a,b)." }))
  }
  if (appIds.length > MAX_BATCH) {
    return Effect.fail(
      new TooManyApplications({
        message: `A batch names at most ${MAX_BATCH} applications; this one names ${appIds.length}.`,
        hint: "Split the login into batches of 100.",
        details: { limit: MAX_BATCH, given: appIds.length }
      })
    )
  }
  const repeated = [...new Set(appIds.filter((id, index) => appIds.indexOf(id) !== index))]
  if (repeated.length > 0) {
    return Effect.fail(
      new DuplicateApplications({ message: `Name each application once: ${repeated.join(", ")} came more than once.`, details: { app_ids: repeated } })
    )
  }
  return Effect.succeed(appIds)
}
