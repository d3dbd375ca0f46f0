import { HttpServerRequest } from "@effect/platform"
import { layer } from "@effect/vitest"
import { FakeAccounts } from "@platform/accounts-identity-api"
import { messageAfter, messagesTo, ServiceUrl } from "@platform/testkit"
import { Effect, Option } from "effect"
import { expect } from "vitest"
import { IamBrowserSession } from "../src/sessions/IamBrowserSession.ts"
import { accountsHold, newCarbon } from "./support/carbons.ts"
import { iamClient, IamTest } from "./support/IamTest.ts"

/** Asks for a login code and reads it from the mailbox: `to` is where it is expected. */
const codeFor = (payload: { email?: string; phone_number?: string; carbon_id?: string }, to: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const client = yield* iamClient()
    const seen = yield* Effect.forEach(to, messagesTo)
    const challenge = yield* client.login.createChallenge({ payload })
    const codes = yield* Effect.forEach(to, (address, i) => Effect.map(messageAfter(address, seen[i]!), (message) => message.code ?? ""))
    return { challenge, codes }
  })

const verifyOverHttp = (sessionId: string, code: string) =>
  Effect.flatMap(ServiceUrl, (url) =>
    Effect.promise(async () => {
      const response = await fetch(`${url}/api/v1/login/challenges/${sessionId}/verify`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code })
      })
      return { status: response.status, cookie: response.headers.get("set-cookie"), body: await response.json() as Record<string, string> }
    }))

/** Whom the request's `iam_session` cookie speaks for, read as the browser pages read it. */
const cookieSession = (cookie: string) =>
  Effect.flatMap(IamBrowserSession, (browser) => browser.fromRequest).pipe(
    Effect.provideService(
      HttpServerRequest.HttpServerRequest,
      HttpServerRequest.fromWeb(new Request("http://iam.test/login", { headers: { cookie } }))
    ),
    Effect.provide(IamBrowserSession.Default)
  )

layer(IamTest(), { excludeTestServices: true })("iam login", (it) => {
  it.effect("login by email: the code comes by email, a right one answers a credential pair and sets the signed iam_session cookie", () =>
    Effect.gen(function*() {
      const ada = yield* accountsHold(newCarbon("ada"))
      const email = ada.verified_emails[0]!
      const { challenge, codes } = yield* codeFor({ email: email.toUpperCase() }, [email])
      expect(challenge.channels).toEqual([{ channel: "email", destination: expect.stringMatching(/^a\*\*\*@example\.com$/) }])
      expect(codes[0]).toMatch(/^[0-9]{6}$/)

      const answer = yield* verifyOverHttp(challenge.session_id, codes[0]!)
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({ token_type: "Bearer", expires_in: 1800 })
      const set = new RegExp(`^iam_session=v1\\.${answer.body["session_id"]}\\.[A-Za-z0-9_-]{43}; Max-Age=(\\d+); Path=/; HttpOnly; SameSite=Lax$`)
      expect(answer.cookie).toMatch(set)
      // Until the session's own end, 900 days away.
      expect(Number(set.exec(answer.cookie ?? "")?.[1])).toBeGreaterThan(900 * 86_400 - 60)
      const signedIn = yield* iamClient({ authorization: `Bearer ${answer.body["access_token"]}` })
      expect(yield* signedIn.sessions.current()).toMatchObject({ identity: { uuid: ada.uuid, id: ada.id, kind: "carbon" } })

      const cookie = answer.cookie!.split(";")[0]!
      expect(Option.map(yield* cookieSession(cookie), (access) => access.session_id)).toEqual(Option.some(answer.body["session_id"]))
      expect(yield* cookieSession(`${cookie.slice(0, -2)}xx`)).toEqual(Option.none())
      expect(yield* cookieSession(`iam_session=v1.${answer.body["session_id"]}`)).toEqual(Option.none())
    }))

  it.effect("login by phone: the code comes by SMS", () =>
    Effect.gen(function*() {
      const bo = yield* accountsHold(newCarbon("bo"))
      const phone = bo.verified_phones[0]!
      const { challenge, codes } = yield* codeFor({ phone_number: phone }, [phone])
      expect(challenge.channels).toEqual([{ channel: "phone", destination: expect.stringMatching(/^\+14\*+\d{3}$/) }])
      const client = yield* iamClient()
      const pair = yield* client.login.verify({ path: { session_id: challenge.session_id }, payload: { code: codes[0]! } })
      expect(pair.refresh_token).toMatch(/^irt_/)
    }))

  it.effect("login by c: id sends a code to both verified channels, and either code answers", () =>
    Effect.gen(function*() {
      const cy = yield* accountsHold(newCarbon("cy"))
      const to = [cy.verified_emails[0]!, cy.verified_phones[0]!]
      const client = yield* iamClient()

      const byPhone = yield* codeFor({ carbon_id: cy.id! }, to)
      expect(byPhone.challenge.channels.map((sent) => sent.channel)).toEqual(["email", "phone"])
      const first = yield* client.login.verify({ path: { session_id: byPhone.challenge.session_id }, payload: { code: byPhone.codes[1]! } })

      const byEmail = yield* codeFor({ carbon_id: cy.id!.toUpperCase() }, to)
      const second = yield* client.login.verify({ path: { session_id: byEmail.challenge.session_id }, payload: { code: byEmail.codes[0]! } })
      expect(second.session_id).not.toBe(first.session_id)
    }))

  it.effect("an email, phone or id no active Carbon owns is 404 identity_not_found; a deleted account can no longer log in", () =>
    Effect.gen(function*() {
      const client = yield* iamClient()
      for (const payload of [{ email: "nobody@example.com" }, { phone_number: "+14155550199" }, { carbon_id: "c:nobody" }]) {
        expect(yield* Effect.flip(client.login.createChallenge({ payload }))).toMatchObject({ code: "identity_not_found", status: 404 })
      }
      const gone = yield* accountsHold(newCarbon("gone", { status: "deleted" }))
      expect(yield* Effect.flip(client.login.createChallenge({ payload: { email: gone.verified_emails[0]! } }))).toMatchObject({
        code: "identity_not_found"
      })

      // Deleted after the code was sent: the right code opens no session.
      const late = yield* accountsHold(newCarbon("late"))
      const { challenge, codes } = yield* codeFor({ email: late.verified_emails[0]! }, [late.verified_emails[0]!])
      yield* Effect.flatMap(FakeAccounts, (accounts) => accounts.put({ ...late, status: "deleted" }))
      expect(yield* Effect.flip(client.login.verify({ path: { session_id: challenge.session_id }, payload: { code: codes[0]! } })))
        .toMatchObject({ code: "identity_not_found" })
    }))

  it.effect("a login names exactly one of email, phone_number and carbon_id (422 validation_failed)", () =>
    Effect.gen(function*() {
      const client = yield* iamClient()
      for (const payload of [{}, { email: "a@example.com", carbon_id: "c:a" }, { phone_number: "0207 946 0000" }, { carbon_id: "si:bot" }]) {
        expect(yield* Effect.flip(client.login.createChallenge({ payload }))).toMatchObject({ code: "validation_failed", status: 422 })
      }
    }))

  it.effect("signup: prove an email, then complete with a display name and id: the Carbon is created in accounts and logged in", () =>
    Effect.gen(function*() {
      const client = yield* iamClient()
      const email = `new.${Date.now()}@example.com`
      const seen = yield* messagesTo(email)
      const challenge = yield* client.signup.createChallenge({ payload: { email } })
      const code = (yield* messageAfter(email, seen)).code ?? ""
      const signup = yield* client.signup.verify({ path: { session_id: challenge.session_id }, payload: { code } })
      expect(signup).toMatchObject({ channel: "email", destination: email })
      expect(signup.signup_id).toMatch(/^sgn_/)

      const handle = `c:new${Date.now() % 1_000_000}`
      const pair = yield* client.signup.complete({ path: { signup_id: signup.signup_id }, payload: { display_name: "Newcomer", id: handle } })
      const signedIn = yield* iamClient({ authorization: `Bearer ${pair.access_token}` })
      expect((yield* signedIn.sessions.current()).identity).toMatchObject({ id: handle, kind: "carbon" })
      const created = (yield* Effect.flatMap(FakeAccounts, (accounts) => accounts.identities)).find((held) => held.id === handle)
      expect(created).toMatchObject({ display_name: "Newcomer", status: "active", verified_emails: [email] })

      expect(yield* Effect.flip(client.signup.complete({ path: { signup_id: signup.signup_id }, payload: { display_name: "Again" } })))
        .toMatchObject({ code: "signup_already_completed", status: 409 })
      expect(yield* Effect.flip(client.signup.createChallenge({ payload: { email } }))).toMatchObject({ code: "identity_exists", status: 409 })
      expect(yield* Effect.flip(client.signup.complete({ path: { signup_id: "sgn_madeup" }, payload: { display_name: "X" } })))
        .toMatchObject({ code: "signup_not_found" })
    }))
})
