import { SqlClient } from "@effect/sql"
import { ValidationFailed } from "@platform/http"
import { now } from "@platform/service"
import { Effect } from "effect"
import { parseAccountId } from "../accounts/AccountId.ts"
import type { CarbonRow } from "../accounts/AccountRow.ts"
import { IdsRepo } from "../accounts/IdsRepo.ts"
import { publishEvent } from "../events/publishEvent.ts"
import { SigninsRepo } from "../oauth/SigninsRepo.ts"
import { reservationEndingFrom } from "../profile/IdChanges.ts"
import { IdChangesRepo } from "../profile/IdChangesRepo.ts"
import { CustodianRequestsRepo } from "../silicons/CustodianRequestsRepo.ts"
import { SiliconsRepo } from "../silicons/SiliconsRepo.ts"
import { AccountDeletionRepo } from "./AccountDeletionRepo.ts"
import { eventWriter } from "../events/EventWriter.ts"

const notConfirmed = () =>
  new ValidationFailed({
    message: "To delete your account, send confirm_id equal to your current id.",
    details: { fields: { confirm_id: "must equal your current id" } }
  })

/**
 * DELETE /v1/me: a Carbon deletes itself, in one transaction with everything that follows
 * (decisions.md, "Deleting an account").
 */
export class AccountDeletion extends Effect.Service<AccountDeletion>()("accounts/AccountDeletion", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const events = yield* eventWriter
    const repo = yield* AccountDeletionRepo
    const changes = yield* IdChangesRepo
    const ids = yield* IdsRepo
    const signins = yield* SigninsRepo
    const silicons = yield* SiliconsRepo
    const requests = yield* CustodianRequestsRepo

    const deleteCarbon = (carbon: CarbonRow, confirmId: string) =>
      Effect.gen(function*() {
        const confirmed = parseAccountId(confirmId, "carbon")
        if (confirmed._tag === "Left" || confirmed.right.kind !== "carbon" || confirmed.right.handle !== carbon.handle) {
          return yield* notConfirmed()
        }
        const at = yield* now
        yield* sql.withTransaction(Effect.gen(function*() {
          const current = yield* changes.lockHandle(carbon.uuid)
          if (current?.handle == null) return
          const handle = current.handle
          // Everything that reads the Carbon's summary (events, its Silicons' ends) runs before it loses its id.
          yield* publishEvent(events, { type: "account.deleted", accountUuid: carbon.uuid, occurredAt: at, id: `c:${handle}` })
          for (const silicon of yield* repo.siliconsInCustody(carbon.uuid)) yield* silicons.end(silicon, "deleted", at)
          for (const request of yield* repo.requestsAddressedTo(carbon.uuid)) {
            if (request.kind === "initial") {
              yield* requests.decide(request.id, "declined", at)
              yield* silicons.end(request.silicon_uuid, "declined", at)
            } else {
              yield* requests.decide(request.id, "cancelled", at)
            }
          }
          // Every sign-in: first-party tokens, app sign-ins and browser sessions; access tokens check theirs on each use.
          yield* signins.revokeAll(carbon.uuid, at, "account_deleted")
          yield* repo.endCarbon(carbon.uuid, at)
          yield* ids.reserve(handle, carbon.uuid, reservationEndingFrom(at), at)
        })).pipe(Effect.catchTag("SqlError", Effect.die))
      }).pipe(Effect.withSpan("AccountDeletion.deleteCarbon"))

    return { deleteCarbon } as const
  }),
  dependencies: [AccountDeletionRepo.Default, IdChangesRepo.Default, IdsRepo.Default, SigninsRepo.Default, SiliconsRepo.Default, CustodianRequestsRepo.Default]
}) {}
