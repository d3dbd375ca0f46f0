import { Effect, Option } from "effect"
import { custodianLabel } from "./CustodianRequest.ts"
import { CustodianRequestsRepo } from "./CustodianRequestsRepo.ts"
import { Custody } from "./Custody.ts"
import { AccountDeleted, CustodianDeclined, CustodianExpired, CustodianPending } from "./errors.ts"
import type { SiliconRow } from "./SiliconRow.ts"

export type SigninRefusal = CustodianPending | CustodianDeclined | CustodianExpired | AccountDeleted

/**
 * Whether a Silicon whose credentials were just proven may sign in (spec 1,
 * Silicon login failure answers): an active one may; a pending one is told
 * which custodian it waits for (or that its 14 days ran out); a deleted one
 * is told why it ended. Asked only after the credentials, so none of this is
 * shown to someone who does not hold them.
 */
export const signinEligibility = (silicon: SiliconRow) =>
  Effect.gen(function*() {
    if (silicon.status === "active") return silicon
    if (silicon.status === "pending_custodian") {
      const requests = yield* CustodianRequestsRepo
      const custody = yield* Custody
      const pending = yield* requests.pendingFor(silicon.uuid)
      if (Option.isSome(pending)) {
        const request = yield* custody.settled(pending.value)
        if (request.status === "pending") {
          return yield* new CustodianPending({
            message: "This Silicon waits for its custodian to accept it.",
            hint: "Poll the custodian request with its sarq_ token; sign in once it is accepted.",
            details: {
              custodian: custodianLabel(request),
              request_id: request.id,
              expires_at: request.expires_at.toISOString()
            }
          })
        }
        return yield* new CustodianExpired({ message: "The custodian did not answer within 14 days; this Silicon was deleted." })
      }
    }
    switch (silicon.ended_by) {
      case "declined":
        return yield* new CustodianDeclined({ message: "The custodian declined this Silicon; it was deleted." })
      case "expired":
        return yield* new CustodianExpired({ message: "The custodian did not answer within 14 days; this Silicon was deleted." })
      default:
        return yield* new AccountDeleted({ message: "This Silicon was deleted by its custodian." })
    }
  })
