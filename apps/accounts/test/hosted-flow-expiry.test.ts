import { expect, layer } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { RateLimiter } from "@platform/rate-limit"
import { MessageOutbox } from "@platform/mail"
import { Duration, Effect, Either, Layer, Option } from "effect"
import { AccountsRepo } from "../src/accounts/AccountsRepo.ts"
import { ContactsRepo } from "../src/accounts/ContactsRepo.ts"
import { AppsRepo } from "../src/apps/AppsRepo.ts"
import { createFakeApp } from "../src/apps/FakeApps.ts"
import { AuthorizationCodes } from "../src/oauth/AuthorizationCodes.ts"
import { AccountsConfigOf } from "../src/config.ts"
import { FlowCore } from "../src/flows/FlowCore.ts"
import { FlowEngine } from "../src/flows/FlowEngine.ts"
import { FlowProviderMoves } from "../src/flows/FlowProviderMoves.ts"
import { VerificationCodesLive } from "../src/verification/VerificationCodesLive.ts"
import { accountsMigrations } from "../src/migrations.ts"
import { TestClock } from "effect"
import { atNow } from "./support/accountsRepo.ts"
import { testSettings } from "./support/AccountsUnderTest.ts"

const FlowsTest = Layer.mergeAll(FlowEngine.Default, FlowProviderMoves.Default, FlowCore.Default).pipe(
  Layer.provideMerge(Layer.mergeAll(AppsRepo.Default, AccountsRepo.Default, ContactsRepo.Default, AuthorizationCodes.Default, VerificationCodesLive)),
  Layer.provideMerge(Layer.mergeAll(RateLimiter.layer, MessageOutbox.layer)),
  Layer.provideMerge(TestDatabase.layer(accountsMigrations)),
  Layer.provideMerge(AccountsConfigOf(testSettings(4100)))
)

const fakeApp = (appId: string) =>
  createFakeApp({ appId, name: appId, redirectUris: ["https://app.example/cb"], owner: Option.none(), scopeFields: [] }).pipe(Effect.orDie)

/** The flow's lifetime (on the TestClock) and a lost race (which HTTP cannot stage without timing), at the service level. */
layer(FlowsTest)("hosted flow lifetime and races", (it) => {
  it.effect("a flow answers until its 60 minutes are over, then 410 flow_expired", () =>
    Effect.gen(function*() {
      yield* atNow
      yield* fakeApp("expiring")
      const engine = yield* FlowEngine
      const moves = yield* FlowProviderMoves
      const created = yield* engine.create({ app_id: "expiring", redirect_uri: "https://app.example/cb" }, {})
      const id = created.flow.id
      const cookie = created.cookies.find((c) => c.name === "sa_flow")!.value
      expect(Duration.toMillis(Duration.decode(created.cookies[0]!.maxAge))).toBe(3_600_000)
      yield* TestClock.adjust(Duration.minutes(59))
      expect((yield* moves.get(id, { flow: cookie })).flow.step).toBe("choose_method")
      yield* TestClock.adjust(Duration.minutes(1))
      const expired = yield* Effect.either(moves.get(id, { flow: cookie }))
      expect(Either.isLeft(expired) && expired.left.code).toBe("flow_expired")
      const move = yield* Effect.either(engine.cancel(id, { flow: cookie }))
      expect(Either.isLeft(move) && move.left.code).toBe("flow_expired")
    }))

  it.effect("a move saved after another one changed the flow is 409 flow_changed; the first move stands", () =>
    Effect.gen(function*() {
      yield* atNow
      yield* fakeApp("racing")
      const engine = yield* FlowEngine
      const core = yield* FlowCore
      const created = yield* engine.create({ app_id: "racing", redirect_uri: "https://app.example/cb" }, {})
      const id = created.flow.id
      const cookies = { flow: created.cookies.find((c) => c.name === "sa_flow")!.value }
      // A move loads the flow; another tab's move (cancel) saves first; the slow one then saves what it made.
      const slow = yield* core.load(id, cookies)
      yield* engine.cancel(id, cookies)
      const lost = yield* Effect.flip(core.commit(slow, slow.row.state))
      expect(lost).toMatchObject({ code: "flow_changed", status: 409 })
      const moves = yield* FlowProviderMoves
      expect((yield* moves.get(id, cookies)).flow).toMatchObject({ step: "complete", error: { code: "access_denied" } })
    }))
})
