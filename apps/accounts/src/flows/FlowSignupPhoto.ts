import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Photos } from "../profile/Photos.ts"
import { FlowCore, type FlowCookies } from "./FlowCore.ts"
import { Step } from "./FlowState.ts"
import { SignupSessions } from "./SignupSessions.ts"

/**
 * A photo chosen on the sign-up page, before the account exists (POST /v1/flows/{id}/signup/photo):
 * checked and cleaned as any photo, held by the sign-up session (20 uploads per hour per sign-up) and
 * shown as the flow's `signup.pfp_url`; the account the sign-up makes takes it.
 */
export class FlowSignupPhoto extends Effect.Service<FlowSignupPhoto>()("accounts/FlowSignupPhoto", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const core = yield* FlowCore
    const signups = yield* SignupSessions
    const photos = yield* Photos

    const upload = (id: string, cookies: FlowCookies, contentType: string, body: Uint8Array) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        const started = (yield* core.expectStep(loaded, ["signup"])).signup
        const session = yield* signups.bound(started.id, cookies.signup, loaded.at)
        const photo = yield* photos.checkForSignup(session.id, contentType, body)
        // The photo and the flow showing it are saved together: a flow changed meanwhile keeps neither.
        return yield* sql.withTransaction(Effect.gen(function*() {
          const pfpUrl = yield* photos.holdForSignup(session.id, photo, loaded.at)
          return yield* core.commit(loaded, { ...loaded.row.state, step: Step.signup({ signup: { ...started, pfp_url: pfpUrl } }) })
        })).pipe(Effect.catchTag("SqlError", Effect.die))
      })

    return { upload } as const
  }),
  dependencies: [FlowCore.Default, SignupSessions.Default, Photos.Default]
}) {}
