import { expect, layer } from "@effect/vitest"
import { randomHex } from "@platform/crypto"
import { Effect } from "effect"
import { insertSilicon } from "./support/carbons.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { asAccount, signedInCarbon, withCodeTo } from "./support/contacts.ts"
import { fetchAnswer } from "./support/http.ts"
import { messagesTo } from "@platform/testkit"
import { signInDirectly } from "./support/signIn.ts"

const unique = (name: string) => `${name}-${randomHex(6)}@example.com`

/** POST /v1/cli/login/verify, which takes no account credentials. */
const cliVerify = (body: unknown) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}/v1/cli/login/verify`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      })
    ))

layer(AccountsTest({ trustProxy: true }), { excludeTestServices: true })("who may use an email or phone code", (it) => {
  it.effect("every contact route is Carbon only: a Silicon is 403 carbon_only, and nothing is sent", () =>
    Effect.gen(function*() {
      const uuid = yield* insertSilicon
      const { accessToken } = yield* signInDirectly(uuid)
      const api = asAccount(accessToken)
      const address = unique("silicon")
      const calls = [
        api.get("/v1/me/emails"),
        api.post("/v1/me/emails", { email: address }),
        api.post("/v1/me/emails/verify", { challenge_id: "vch_x", code: "123456" }),
        api.post("/v1/me/emails/resend", { challenge_id: "vch_x" }),
        api.post("/v1/me/emails/a%40example.com/primary"),
        api.del("/v1/me/emails/a%40example.com"),
        api.get("/v1/me/phones"),
        api.post("/v1/me/phones", { phone: "+14155550100" }),
        api.post("/v1/me/phones/verify", { challenge_id: "vch_x", code: "123456" }),
        api.post("/v1/me/phones/resend", { challenge_id: "vch_x" }),
        api.post("/v1/me/phones/%2B14155550100/primary"),
        api.del("/v1/me/phones/%2B14155550100")
      ]
      for (const call of calls) {
        const answer = yield* call
        expect(answer.status).toBe(403)
        expect(answer.body.error.code).toBe("carbon_only")
      }
      expect(yield* messagesTo(address)).toBe(0)
    }))

  it.effect("a code sent to add an email cannot sign in, nor confirm it for another account or as a phone", () =>
    Effect.gen(function*() {
      const { api } = yield* signedInCarbon()
      const address = unique("bound")
      const sent = yield* withCodeTo(address, api.post("/v1/me/emails", { email: address }))
      const challengeId: string = sent.result.body.challenge_id

      const signIn = yield* cliVerify({ challenge_id: challengeId, code: sent.code })
      expect(signIn.status).toBe(404)
      expect(signIn.body.error.code).toBe("challenge_not_found")
      const stranger = yield* signedInCarbon()
      const elsewhere = yield* stranger.api.post("/v1/me/emails/verify", { challenge_id: challengeId, code: sent.code })
      expect(elsewhere.status).toBe(404)
      expect(elsewhere.body.error.code).toBe("challenge_not_found")
      const resendElsewhere = yield* stranger.api.post("/v1/me/emails/resend", { challenge_id: challengeId })
      expect(resendElsewhere.status).toBe(404)
      const asPhone = yield* api.post("/v1/me/phones/verify", { challenge_id: challengeId, code: sent.code })
      expect(asPhone.status).toBe(404)
      expect(asPhone.body.error.code).toBe("challenge_not_found")

      // None of those used the code up.
      const verified = yield* api.post("/v1/me/emails/verify", { challenge_id: challengeId, code: sent.code })
      expect(verified.status).toBe(200)
      expect((yield* stranger.api.get("/v1/me/emails")).body.items).toHaveLength(1)
    }))

  it.effect("a sign-in code cannot confirm an address", () =>
    Effect.gen(function*() {
      const address = unique("signin")
      const { api } = yield* signedInCarbon({ email: address })
      const { url } = yield* AccountsUnderTest
      const start = yield* withCodeTo(
        address,
        Effect.promise(() =>
          fetchAnswer(`${url}/v1/cli/login/start`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.99" },
            body: JSON.stringify({ email: address })
          })
        )
      )
      const confirm = yield* api.post("/v1/me/emails/verify", { challenge_id: start.result.body.challenge_id, code: start.code })
      expect(confirm.status).toBe(404)
      expect(confirm.body.error.code).toBe("challenge_not_found")
    }))
})
