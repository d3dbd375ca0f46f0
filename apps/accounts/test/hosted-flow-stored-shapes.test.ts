import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { FlowState } from "../src/flows/FlowState.ts"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { browser, makeFlowApp, proveEmail, run, setSigninConfig } from "./support/flows.ts"

const storedState = (flowId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ state: unknown }>`SELECT state FROM flows WHERE id = ${flowId}`.pipe(Effect.orDie)
    return rows[0]?.state
  })

/** Flows stored before the step became a tagged union (flat, every step's fields side by side) live on for a day. */
layer(AccountsTest(), { excludeTestServices: true })("hosted flow storage", (it) => {
  it.effect("a flow stored in the old flat shape reads as it did and moves on, saved in the current shape", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      yield* setSigninConfig(appId, ["required_fields"], ["email"])
      yield* setSigninConfig(appId, ["optional_fields"], ["dob"])
      yield* createCarbon({ email: "stored.flat@example.com" })
      const b = yield* browser
      const flow = yield* proveEmail(b, appId, "stored.flat@example.com")
      expect(flow).toMatchObject({ step: "details", details: { index: 0, count: 2 } })
      const onward = yield* run(() => b.post(`/v1/flows/${flow.id}/details/continue`, { shared: [] }))
      expect(onward.body.flow).toMatchObject({ step: "details", details: { index: 1, id: "optional" } })
      const before = (yield* run(() => b.get(`/v1/flows/${flow.id}`))).body.flow

      const current = Schema.decodeUnknownSync(FlowState)(yield* storedState(flow.id))
      if (current.step._tag !== "details") return yield* Effect.dieMessage(`stored at ${current.step._tag}`)
      const { step } = current
      const flat = {
        request: current.request,
        timezone: current.timezone,
        session_account_uuid: current.session_account_uuid,
        account_uuid: step.account.uuid,
        auth_time: step.account.auth_time,
        challenge: null,
        signup: null,
        pages: [...step.previous_pages, step.page, ...step.next_pages],
        page_index: step.previous_pages.length,
        shared: step.shared,
        detail_challenge: null,
        review: step.review,
        redirect_to: null,
        error: null
      }
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE flows SET state = ${JSON.stringify(flat)}::jsonb WHERE id = ${flow.id}`.pipe(Effect.orDie)

      expect((yield* run(() => b.get(`/v1/flows/${flow.id}`))).body.flow).toEqual(before)
      const back = yield* run(() => b.post(`/v1/flows/${flow.id}/details/back`, {}))
      expect(back.body.flow).toMatchObject({ step: "details", details: { index: 0, id: "required" } })
      expect(yield* storedState(flow.id)).toMatchObject({ step: { _tag: "details", previous_pages: [], next_pages: [{ id: "optional" }] } })
      yield* run(() => b.post(`/v1/flows/${flow.id}/details/continue`, { shared: [] }))
      const done = yield* run(() => b.post(`/v1/flows/${flow.id}/details/continue`, { shared: [] }))
      expect(done.body.flow.step).toBe("complete")
      expect(new URL(done.body.flow.redirect_to).searchParams.get("code")).toMatch(/.+/)
    }))
})
