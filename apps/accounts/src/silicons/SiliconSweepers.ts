import { Duration, Effect, Layer } from "effect"
import { now, periodicSweep } from "@platform/service"
import { Custody } from "./Custody.ts"
import { StkLogin } from "./StkLogin.ts"

/** Custodian requests past their 14 days expire; a self-created Silicon still waiting is deleted with its id freed. */
export const CustodianRequestsSweeperLive = periodicSweep(
  "custodian_requests",
  Effect.flatMap(Custody, (custody) => custody.expireDue)
).pipe(Layer.provide(Custody.Default))

/** Wrong-STK streaks idle for a day (and not locked) are forgotten. */
export const LoginStreaksSweeperLive = periodicSweep(
  "silicon_login_streaks",
  Effect.gen(function*() {
    const login = yield* StkLogin
    const at = yield* now
    return yield* login.sweep(new Date(at.getTime() - Duration.toMillis(Duration.days(1))))
  })
).pipe(Layer.provide(StkLogin.Default))
