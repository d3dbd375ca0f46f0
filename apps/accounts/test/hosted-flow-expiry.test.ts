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
import { FlowEngine } from "../src/flows/FlowEngine.ts"
import { FlowProviderMoves } from "../src/flows/FlowProviderMoves.ts"
import { VerificationCodesLive } from "../src/verification/VerificationCodesLive.ts"
import { accountsMigrations } from "../src/migrations.ts"
import { TestClock } from "effect"
import { atNow } from "./support/accountsRepo.ts"
import { testSettings } from "./support/AccountsUnderTest.ts"

const FlowsTest = Layer.mergeAll(FlowEngine.Default, FlowProviderMoves.Default).pipe(
  Layer.provideMerge(Layer.mergeAll(AppsRepo.Default, AccountsRepo.Default, ContactsRepo.Default, AuthorizationCodes.Default, VerificationCodesLive)),
  Layer.provideMerge(Layer.mergeAll(RateLimiter.layer, MessageOutbox.layer)),
  Layer.provideMerge(TestDatabase.layer(accountsMigrations)),
  Layer.provideMerge(AccountsConfigOf(testSettings(4100)))
)

layer(FlowsTest)("hosted flow lifetime", (it) => {
  it.effect("a flow answers until its 60 minutes are over, then 410 flow_expired", () =>
    Effect.gen(function*() {
      yield* atNow
      yield* createFakeApp({
        appId: "expiring",
        name: "Expiring",
        redirectUris: ["https://app.example/cb"],
        owner: Option.none(),
        scopeFields: []
      }).pipe(Effect.orDie)
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
})
