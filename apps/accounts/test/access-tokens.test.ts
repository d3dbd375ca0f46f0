import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Either } from "effect"
import { ACCESS_TOKEN_LIFETIME, AccessTokens } from "../src/oauth/AccessTokens.ts"
import { AccountsTest } from "./support/AccountsUnderTest.ts"

const tokens = Effect.provide(AccessTokens, AccessTokens.Default)

layer(AccountsTest(), { excludeTestServices: true })("access token verification, remembered per process", (it) => {
  it.effect("a token verified once is still refused as expired at its exp, and a tampered copy is never taken for it", () =>
    Effect.gen(function*() {
      const access = yield* tokens
      const issuedAt = new Date(Date.now())
      const { token } = yield* access.issue({
        accountUuid: "abc",
        signinId: "sgn_x",
        clientId: "some-app",
        audience: "some-app",
        scope: "profile",
        now: issuedAt
      })
      const at = (millis: number) => new Date(issuedAt.getTime() + millis)
      expect((yield* access.verifyAnyAudience(token, issuedAt)).sid).toBe("sgn_x")
      // Remembered now: the next checks answer from memory, with the same lifetime rule as jose's.
      expect((yield* access.verifyAnyAudience(token, at(1000))).sid).toBe("sgn_x")
      const lifetime = Duration.toMillis(ACCESS_TOKEN_LIFETIME)
      expect(yield* Effect.either(access.verifyAnyAudience(token, at(lifetime)))).toEqual(Either.left("expired"))
      const [header, payload, signature] = token.split(".")
      const flipped = signature![10] === "A" ? "B" : "A"
      const tampered = `${header}.${payload}.${signature!.slice(0, 10)}${flipped}${signature!.slice(11)}`
      expect(yield* Effect.either(access.verifyAnyAudience(tampered, at(1000)))).toEqual(Either.left("invalid"))
    }))
})
