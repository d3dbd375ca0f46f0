import { afterAll, beforeAll, expect, layer } from "@effect/vitest"
import { lastMessageTo, messageAfter, messagesTo } from "@platform/testkit"
import { Effect, Option } from "effect"
import * as client from "openid-client"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Page } from "playwright-core"
import { AccountsRepo } from "../../src/accounts/AccountsRepo.ts"
import { AppsRepo } from "../../src/apps/AppsRepo.ts"
import { createFakeApp } from "../../src/apps/FakeApps.ts"
import { AccountsTest, AccountsUnderTest } from "../support/AccountsUnderTest.ts"
import { chromiumForFile, expectAccessible, expectPageHeaders, freshPage, recordPages, screenshots, tabTo } from "@platform/testkit/chromium"
import { fetchAnswer } from "../support/http.ts"

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

const chromium = chromiumForFile()
/** The relying party's callback: a real server on the loopback, so the browser lands on an app's page. */
let callbackServer: Server
let REDIRECT = ""
beforeAll(async () => {
  callbackServer = createServer((_, response) => {
    response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>RP</title><p>Back at the app</p>")
  })
  await new Promise<void>((listening) => callbackServer.listen(0, "127.0.0.1", listening))
  REDIRECT = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`
})
afterAll(async () => {
  await new Promise((closed) => callbackServer?.close(closed))
})

let apps = 0

/** A relying party: required email, optional dob, a review page (terms), the given theme and copy. */
const relyingParty = (theme: "light" | "dark" | "auto") =>
  Effect.gen(function*() {
    const { url } = yield* AccountsUnderTest
    const appId = `site-rp-${apps++}`
    const { secret } = yield* createFakeApp({
      appId,
      name: "Relying Party",
      redirectUris: [REDIRECT],
      owner: Option.none(),
      scopeFields: ["email"]
    }).pipe(Effect.orDie, Effect.provide([AccountsRepo.Default, AppsRepo.Default]))
    const patched = yield* promise(() =>
      fetchAnswer(`${url}/v1/apps/${appId}/signin-config`, {
        method: "PATCH",
        headers: {
          authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}`,
          "content-type": "application/json"
        },
        body: JSON.stringify({
          optional_fields: ["dob"],
          branding: { theme },
          copy: {
            subtitle: "Your notes, everywhere.",
            terms_url: "https://rp.example.test/terms",
            privacy_url: "https://rp.example.test/privacy",
            support_email: "help@rp.example.test"
          }
        })
      })
    )
    expect(patched.status).toBe(200)
    const config = yield* promise(() =>
      client.discovery(new URL(url), appId, undefined, client.ClientSecretBasic(secret), { execute: [client.allowInsecureRequests] })
    )
    return { appId, config }
  })

/** An authorization request of the relying party, with what its callback checks. */
const authorization = (config: client.Configuration, scope = "openid profile email dob") =>
  Effect.gen(function*() {
    const verifier = client.randomPKCECodeVerifier()
    const state = client.randomState()
    const nonce = client.randomNonce()
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope,
      code_challenge: yield* promise(() => client.calculatePKCECodeChallenge(verifier)),
      code_challenge_method: "S256",
      state,
      nonce
    })
    return { url, verifier, state, nonce }
  })

/** A fresh browser context (its own cookies). */
const newPage = () => freshPage(chromium())

const heading = (page: Page, text: string | RegExp) => page.getByRole("heading", { level: 1, name: text }).waitFor()

layer(AccountsTest(), { excludeTestServices: true })("the hosted sign-in pages in Chromium", (it) => {
  for (const theme of ["light", "dark"] as const) {
    it.scoped(`a new account through every page (${theme} branding), then a returning sign-in with no page`, () =>
      Effect.gen(function*() {
        const { url } = yield* AccountsUnderTest
        const { appId, config } = yield* relyingParty(theme)
        const { page } = yield* newPage()
        const pages = recordPages(page, url)
        const request = yield* authorization(config)
        const shot = (step: string) =>
          promise(async () => {
            await expectAccessible(page, step)
            await screenshots(page, `${theme}-${step}`)
          })

        yield* promise(() => page.goto(request.url.href))
        yield* promise(() => heading(page, "Sign in to Relying Party"))
        yield* promise(async () => expect(await page.getByText("Your notes, everywhere.").isVisible()).toBe(true))
        yield* shot("1-choose-method")

        const email = `grace-${theme}-${Date.now().toString(36)}@example.com`
        yield* promise(() => page.getByLabel("Email address").fill(email))
        yield* promise(() => page.getByRole("button", { name: "Continue with email" }).click())
        yield* promise(() => heading(page, "Check your email"))
        yield* promise(async () => expect(await page.locator(".lead strong").textContent()).not.toContain(email))
        yield* shot("2-verify-code")

        // A wrong code is shown next to the field, the page staying where it was.
        yield* promise(() => page.getByLabel("Code").fill("000000"))
        yield* promise(() => page.getByRole("button", { name: "Verify" }).click())
        yield* promise(() => page.locator("#code-error").waitFor())
        yield* promise(async () => expect(await page.getByLabel("Code").getAttribute("aria-invalid")).toBe("true"))
        yield* shot("3-verify-code-error")

        const code = (yield* lastMessageTo(email)).code!
        yield* promise(() => page.getByLabel("Code").fill(code))
        yield* promise(() => page.getByRole("button", { name: "Verify" }).click())
        yield* promise(() => heading(page, "Create your account"))
        const handle = `grace_${theme}_${Date.now().toString(36)}`
        yield* promise(() => page.getByLabel("Your name").fill("Grace Hopper"))
        yield* promise(() => page.getByLabel("Your id").fill(handle))
        yield* promise(() => page.getByText(`c:${handle} is available.`).waitFor())
        yield* shot("4-signup")
        yield* promise(() => page.getByRole("button", { name: "Create account" }).click())

        yield* promise(() => heading(page, "Relying Party needs these details"))
        yield* promise(async () => expect(await page.getByLabel("Email address").isDisabled()).toBe(true))
        yield* shot("5-details-required")
        yield* promise(() => page.getByRole("button", { name: "Continue", exact: true }).click())
        yield* promise(() => heading(page, "Share more with Relying Party?"))
        yield* promise(async () => expect(await page.getByLabel("Date of birth (optional)").isVisible()).toBe(true))
        yield* shot("6-details-optional")
        // Back, and forward again.
        yield* promise(() => page.getByRole("button", { name: "Back" }).click())
        yield* promise(() => heading(page, "Relying Party needs these details"))
        yield* promise(() => page.getByRole("button", { name: "Continue", exact: true }).click())
        yield* promise(() => heading(page, "Share more with Relying Party?"))
        yield* promise(() => page.getByRole("button", { name: "Continue", exact: true }).click())

        yield* promise(() => heading(page, "Review what Relying Party gets"))
        yield* shot("7-review")
        yield* promise(() =>
          Promise.all([
            page.waitForURL((u) => u.href.startsWith(REDIRECT)),
            page.getByRole("button", { name: "Confirm and continue to Relying Party" }).click()
          ])
        )
        const tokens = yield* promise(() =>
          client.authorizationCodeGrant(config, new URL(page.url()), {
            pkceCodeVerifier: request.verifier,
            expectedState: request.state,
            expectedNonce: request.nonce,
            idTokenExpected: true
          })
        )
        const claims = tokens.claims()!
        expect(claims).toMatchObject({ iss: url, aud: appId, nonce: request.nonce })
        expect(tokens["account"]).toMatchObject({ display_name: "Grace Hopper", id: `c:${handle}`, email })

        // The page of the finished flow (the browser's back button) offers the way back, never the code again.
        yield* promise(() => page.goBack())
        yield* promise(() => heading(page, "You're signed in"))
        yield* shot("8-complete")
        yield* promise(() => expectPageHeaders(pages))

        // Signing in again, asking nothing new (dob was not shared): straight back to the app, no page shown.
        const again = yield* authorization(config, "openid profile email")
        const shownBefore = pages.length
        yield* promise(() => page.goto(again.url.href))
        yield* promise(() => page.waitForURL((u) => u.href.startsWith(REDIRECT)))
        expect(pages.length).toBe(shownBefore)
        const second = yield* promise(() =>
          client.authorizationCodeGrant(config, new URL(page.url()), {
            pkceCodeVerifier: again.verifier,
            expectedState: again.state,
            expectedNonce: again.nonce,
            idTokenExpected: true
          })
        )
        expect(second.claims()!.sub).toBe(claims.sub)
      }), 120_000)
  }

  it.scoped("resend (once offered), another address (switch), then cancel back to the app with access_denied", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const { config } = yield* relyingParty("auto")
      const { page } = yield* newPage()
      const pages = recordPages(page, url)
      const request = yield* authorization(config)
      // The page's own clock, so the 30 seconds before a resend is offered pass at once.
      yield* promise(() => page.clock.install())
      yield* promise(() => page.goto(request.url.href))
      const email = `resend-${Date.now().toString(36)}@example.com`
      yield* promise(() => page.getByLabel("Email address").fill(email))
      yield* promise(() => page.getByRole("button", { name: "Continue with email" }).click())
      yield* promise(() => heading(page, "Check your email"))
      const resend = page.getByRole("button", { name: "Send a new code" })
      // The script holds the button until the service suggests a resend (30 seconds).
      yield* promise(async () => expect(await resend.isDisabled()).toBe(true))
      yield* promise(() => page.clock.fastForward("00:25"))
      yield* promise(async () => expect(await resend.isDisabled()).toBe(true))
      yield* promise(() => page.clock.fastForward("00:06"))
      yield* promise(() => page.locator("button[data-resend-at]:enabled").waitFor())
      // The outbox sends after the request: the first code has to arrive before the resend is counted.
      yield* messageAfter(email, 0)
      yield* promise(() => resend.click())
      yield* promise(() => heading(page, "Check your email"))
      yield* messageAfter(email, 1)
      expect(yield* messagesTo(email)).toBe(2)

      yield* promise(() => page.getByRole("button", { name: "Use another email address" }).click())
      yield* promise(() => heading(page, "Sign in to Relying Party"))
      yield* promise(() =>
        Promise.all([
          page.waitForURL((u) => u.href.startsWith(REDIRECT)),
          page.getByRole("button", { name: "Cancel and return to Relying Party" }).click()
        ])
      )
      const back = new URL(page.url())
      expect(back.searchParams.get("error")).toBe("access_denied")
      expect(back.searchParams.get("state")).toBe(request.state)
      yield* promise(() => expectPageHeaders(pages))
    }), 120_000)

  it.scoped("the email path with the keyboard alone", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const { config } = yield* relyingParty("auto")
      const { page } = yield* newPage()
      const pages = recordPages(page, url)
      const request = yield* authorization(config)
      yield* promise(() => page.goto(request.url.href))
      const email = `keys-${Date.now().toString(36)}@example.com`
      yield* promise(async () => {
        await tabTo(page, "#destination-email")
        await page.keyboard.type(email)
        await page.keyboard.press("Enter")
        await heading(page, "Check your email")
      })
      const code = (yield* lastMessageTo(email)).code!
      yield* promise(async () => {
        await tabTo(page, "#code")
        await page.keyboard.type(code)
        await page.keyboard.press("Enter")
        await heading(page, "Create your account")
        await tabTo(page, "#display_name")
        await page.keyboard.type("Ada Keys")
        await page.keyboard.press("Enter")
        await heading(page, "Relying Party needs these details")
        await tabTo(page, "form[action$='details_continue'] button")
        await page.keyboard.press("Enter")
        await heading(page, "Share more with Relying Party?")
        await tabTo(page, "form[action$='details_continue'] button")
        await page.keyboard.press("Enter")
        await heading(page, "Review what Relying Party gets")
        await tabTo(page, "form[action$='/review'] button")
        await Promise.all([page.waitForURL((u) => u.href.startsWith(REDIRECT)), page.keyboard.press("Enter")])
      })
      expect(new URL(page.url()).searchParams.get("code")).toMatch(/^sac_/)
      yield* promise(() => expectPageHeaders(pages))
    }), 60_000)
})
