import { SqlClient } from "@effect/sql"
import { AccountsDirectory, type IdentityChanges } from "@platform/accounts-identity-api"
import { doesSharedChores, now } from "@platform/service"
import { Duration, Effect, Layer, Option, Schedule } from "effect"
import { ProfileEvents } from "../organizations/ProfileEvents.ts"
import { SessionsRepo } from "../sessions/SessionsRepo.ts"
import { AccountChangesRepo } from "./AccountChangesRepo.ts"

/** How often IAM reads accounts' changes feed: the longest an ended account's IAM sessions outlive it. */
export const FOLLOW_INTERVAL = Duration.seconds(5)
const PAGE = 100

/**
 * Keeps IAM's projection of accounts identities true between logins: reads accounts' changes feed from where
 * it stopped, corrects each identity IAM has seen (id, display name, status) and ends the IAM sessions of one
 * that is no longer active (its application sessions end with them). A page and the new position commit
 * together, so a crash rereads at most one page, and applying a change twice changes nothing.
 */
export class AccountChangesFollower extends Effect.Service<AccountChangesFollower>()("iam/AccountChangesFollower", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const directory = yield* AccountsDirectory
    const repo = yield* AccountChangesRepo
    const sessions = yield* SessionsRepo
    const profiles = yield* ProfileEvents

    const apply = (page: IdentityChanges) =>
      Effect.gen(function*() {
        const at = yield* now
        let ended = 0
        for (const change of page.items) {
          const corrected = yield* repo.correct(change, at)
          if (Option.isSome(corrected) && corrected.value.length > 0) yield* profiles.identityChanged(change.uuid, corrected.value)
          if (Option.isSome(corrected) && change.status !== "active") {
            ended += (yield* sessions.endSessionsOf(change.uuid, at, "identity_inactive")).length
          }
        }
        yield* repo.advance(page.cursor, at)
        return ended
      }).pipe(sql.withTransaction, Effect.orDie)

    /** Reads every settled change after the stored position; the number of sessions ended. */
    const catchUp = Effect.gen(function*() {
      let ended = 0
      while (true) {
        const after = yield* repo.position
        const page = yield* directory.changes({ ...Option.match(after, { onNone: () => ({}), onSome: (cursor) => ({ after: cursor }) }), limit: PAGE })
        ended += yield* apply(page)
        if (!page.more || page.items.length === 0) return ended
      }
    })

    return { catchUp } as const
  }),
  dependencies: [AccountChangesRepo.Default, SessionsRepo.Default, ProfileEvents.Default]
}) {}

/** The follower every FOLLOW_INTERVAL in the process that does shared chores; accounts out of reach is retried next turn. */
export const AccountChangesFollowerLive = !doesSharedChores() ? Layer.empty : Layer.scopedDiscard(
  Effect.flatMap(AccountChangesFollower, (follower) =>
    Effect.forkScoped(
      follower.catchUp.pipe(
        // Accounts still starting or out of reach is expected (the call already logged it): one line, no trace.
        Effect.catchTag("AccountsUnavailable", () =>
          Effect.logWarning({ event: "accounts_changes_unread", reason: "accounts unavailable; read again on the next turn" })),
        Effect.catchAllCause((cause) => Effect.logWarning({ event: "accounts_changes_unread" }, cause)),
        Effect.repeat(Schedule.spaced(FOLLOW_INTERVAL))
      )
    ))
).pipe(Layer.provide(AccountChangesFollower.Default))
