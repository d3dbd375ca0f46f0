import { messageAfter, messagesTo } from "@platform/testkit"
import { Effect } from "effect"
import type { StepUpAction } from "../../src/auth/StepUpGuard.ts"
import { iamClient } from "./IamTest.ts"

/**
 * Steps up by the code sent to the Carbon's email: the `sup_` token for one action on one resource (and one
 * application, when named).
 */
export const stepUp = (accessToken: string, email: string, action: StepUpAction, resourceId: string, applicationId?: string) =>
  Effect.gen(function*() {
    const client = yield* iamClient({ authorization: `Bearer ${accessToken}` })
    const seen = yield* messagesTo(email)
    const challenge = yield* client.stepUp.createChallenge({
      payload: { action, resource_id: resourceId, channel: "email", ...(applicationId === undefined ? {} : { application_id: applicationId }) }
    })
    const code = (yield* messageAfter(email, seen)).code ?? ""
    return yield* client.stepUp.verify({ path: { session_id: challenge.session_id }, payload: { code } })
  })
