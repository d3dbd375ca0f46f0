import { InMemoryTransport } from "@platform/mail"
import { Effect, Schedule } from "effect"
import { AccountsUnderTest } from "./AccountsUnderTest.ts"
import { createCarbon } from "./carbons.ts"
import { fetchAnswer } from "./http.ts"
import { messagesTo } from "@platform/testkit"
import { signInDirectly } from "./signIn.ts"

/** Calls to the server under test as one signed-in account, from one client address (the server trusts X-Forwarded-For). */
export const asAccount = (accessToken: string, ip = "192.0.2.50") => {
  const send = (method: string, path: string, body?: unknown) =>
    Effect.flatMap(AccountsUnderTest, ({ url }) =>
      Effect.promise(() =>
        fetchAnswer(`${url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${accessToken}`,
            "x-forwarded-for": ip,
            ...(body === undefined ? {} : { "content-type": "application/json" })
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
      ))
  return {
    get: (path: string) => send("GET", path),
    post: (path: string, body?: unknown) => send("POST", path, body),
    del: (path: string) => send("DELETE", path)
  }
}

/** A new Carbon (with a verified primary email) and a first-party sign-in for it. */
export const signedInCarbon = (overrides: { readonly email?: string } = {}, ip?: string) =>
  Effect.gen(function*() {
    const carbon = yield* createCarbon(overrides)
    const { accessToken } = yield* signInDirectly(carbon.uuid)
    return { carbon, accessToken, api: asAccount(accessToken, ip) }
  })

/** Runs `action`, then waits for the message it sends to `to` and answers both. */
export const withCodeTo = <A, E, R>(to: string, action: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const before = yield* messagesTo(to)
    const result = yield* action
    // The first message with a code after those: a notice to the same address (a transfer's) may be delivered in between.
    const message = yield* InMemoryTransport.sent.pipe(
      Effect.flatMap((sent) => {
        const coded = sent.filter((message) => message.to === to).slice(before).find((message) => message.code !== null)
        return coded === undefined ? Effect.fail("waiting" as const) : Effect.succeed(coded)
      }),
      Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("60 seconds"))),
      Effect.orDieWith(() => new Error(`no code reached ${to}`))
    )
    return { result, message, code: message.code! }
  })

/** A six-digit code that is not `code`. */
export const otherCode = (code: string): string => code === "000000" ? "000001" : "000000"
