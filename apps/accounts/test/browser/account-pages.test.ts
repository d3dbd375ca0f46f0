import { expect, layer } from "@effect/vitest"
import { lastMessageTo, messageAfter, messagesTo } from "@platform/testkit"
import { Effect, Option, Schedule } from "effect"
import type { Page, Response } from "playwright-core"
import { AccountsRepo } from "../../src/accounts/AccountsRepo.ts"
import { ContactsRepo } from "../../src/accounts/ContactsRepo.ts"
import { LinkedIdentities } from "../../src/providers/LinkedIdentities.ts"
import { AppsRepo } from "../../src/apps/AppsRepo.ts"
import { createFakeApp } from "../../src/apps/FakeApps.ts"
import { AccountsTest, AccountsUnderTest } from "../support/AccountsUnderTest.ts"
import { createCarbon } from "../support/carbons.ts"
import { chromiumForFile, expectAccessible, expectPageHeaders, freshPage, recordPages, screenshots } from "@platform/testkit/chromium"
import { authorize, bearer, call, poll } from "../support/device.ts"
import { signInDirectly } from "../support/signIn.ts"

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

const chromium = chromiumForFile()

/** One person's browser, signed in to the account site through its own hosted flow (a code to their email). */
const signedInBrowser = Effect.gen(function*() {
  const { url } = yield* AccountsUnderTest
  const email = `ada-${Date.now().toString(36)}@example.com`
  const carbon = yield* createCarbon({ email, displayName: "Ada Lovelace" })
  const { context, page } = yield* freshPage(chromium())
  const pages = recordPages(page, url)
  yield* promise(() => page.goto(`${url}/`))
  yield* promise(() => page.getByRole("heading", { level: 1, name: "Sign in to Accounts" }).waitFor())
  yield* promise(() => page.getByLabel("Email address").fill(email))
  yield* promise(() => page.getByRole("button", { name: "Continue with email" }).click())
  yield* promise(() => page.getByRole("heading", { level: 1, name: "Check your email" }).waitFor())
  const code = (yield* lastMessageTo(email)).code!
  yield* promise(() => page.getByLabel("Code").fill(code))
  yield* promise(() => page.getByRole("button", { name: "Verify" }).click())
  yield* promise(() => page.waitForURL(`${url}/account`))
  return { carbon, email, page, pages, context }
})

const shot = (page: Page, name: string) =>
  promise(async () => {
    await expectAccessible(page, name)
    await screenshots(page, `account-${name}`)
  })

layer(AccountsTest(), { excludeTestServices: true })("the account site's own pages in Chromium", (it) => {
  it.scoped("GET / signs a person in through the hosted flow, then shows the account page; a session is revoked there", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const { carbon, email, page, pages } = yield* signedInBrowser
      yield* promise(() => page.getByRole("heading", { level: 1, name: "Ada Lovelace" }).waitFor())
      yield* promise(async () => expect(await page.getByText(email).first().isVisible()).toBe(true))

      // Another place the person is signed in (a terminal), listed and revoked from the page.
      const other = yield* signInDirectly(carbon.uuid, { clientLabel: "Work laptop" })
      yield* promise(() => page.reload())
      yield* promise(() => page.getByText("Work laptop").waitFor())
      yield* shot(page, "page")
      yield* promise(() => page.getByRole("button", { name: "Revoke" }).click())
      yield* promise(() => page.getByText("Work laptop").waitFor({ state: "detached" }))
      const refused = yield* call("/v1/me", bearer(other.accessToken))
      expect(refused.status).toBe(401)
      expect(refused.body.error.code).toBe("token_revoked")
      // This browser's own session still works: GET / goes straight to the account page.
      yield* promise(() => page.goto(`${url}/`))
      yield* promise(() => page.waitForURL(`${url}/account`))
      yield* promise(() => expectPageHeaders(pages))
    }))

  it.scoped("on the account page a person adds and verifies an email, and sees and unlinks a linked identity", () =>
    Effect.gen(function*() {
      const { carbon, page, pages } = yield* signedInBrowser
      yield* Effect.flatMap(LinkedIdentities, (linked) =>
        linked.link("idp_a", `subject-${carbon.uuid}`, carbon.uuid, "ada@provider-a.example", new Date())).pipe(
          Effect.provide(LinkedIdentities.Default)
        )
      const added = `ada-second-${Date.now().toString(36)}@example.com`
      yield* promise(() => page.reload())
      yield* promise(() => page.getByText("ada@provider-a.example").waitFor())

      yield* promise(() => page.getByLabel("Add email address").fill(added))
      const sent = yield* messagesTo(added)
      yield* promise(() => page.getByRole("form", { name: "Add email" }).getByRole("button", { name: "Send code" }).click())
      const { code } = yield* messageAfter(added, sent)
      yield* promise(() => page.getByLabel(/Code sent to/).first().fill(code!))
      yield* shot(page, "verify-email")
      yield* promise(() => page.getByRole("form", { name: "Verify email" }).getByRole("button", { name: "Verify" }).click())
      yield* promise(() => page.getByRole("form", { name: `Make ${added} primary` }).waitFor())
      const emails = yield* Effect.flatMap(ContactsRepo, (contacts) => contacts.contactsOf(carbon.uuid, "email")).pipe(
        Effect.provide(ContactsRepo.Default)
      )
      expect(emails.find((email) => email.address === added)?.verified_at).toBeInstanceOf(Date)

      yield* promise(() => page.getByRole("form", { name: "Unlink Provider A" }).getByRole("button", { name: "Unlink" }).click())
      yield* promise(() => page.getByText("None linked.").waitFor())
      const left = yield* Effect.flatMap(LinkedIdentities, (linked) => linked.list(carbon.uuid, 10, Option.none())).pipe(
        Effect.provide(LinkedIdentities.Default)
      )
      expect(left).toEqual([])
      yield* promise(() => expectPageHeaders(pages))
    }))

  it.scoped("the device page approves a code that the polling device then redeems", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const { page, pages } = yield* signedInBrowser
      const started = yield* authorize({ client_label: "Build server <b>7</b>" })
      expect(started.status).toBe(200)
      const { device_code, user_code, verification_uri } = started.body
      expect(verification_uri).toBe(`${url}/device`)
      expect((yield* poll(device_code)).body.error).toBe("authorization_pending")

      yield* promise(() => page.goto(verification_uri))
      yield* promise(() => page.getByRole("heading", { level: 1, name: "Sign in a device" }).waitFor())
      yield* shot(page, "device-code")
      yield* promise(() => page.getByLabel("Code shown on your device").fill(user_code.toLowerCase().replace("-", " ")))
      yield* promise(() => page.getByRole("button", { name: "Continue" }).click())
      // The device's own label is shown as text, never as markup.
      yield* promise(() => page.getByText("Build server <b>7</b>").waitFor())
      yield* shot(page, "device-request")
      yield* promise(() => page.getByRole("button", { name: "Approve and sign the device in" }).click())
      yield* promise(() => page.getByText("Approved.").waitFor())

      const tokens = yield* poll(device_code)
      expect(tokens.status).toBe(200)
      expect(tokens.body.token_type).toBe("Bearer")
      expect((yield* call("/v1/me", bearer(tokens.body.access_token))).status).toBe(200)

      // A code that names nothing is said next to the field.
      yield* promise(() => page.goto(`${url}/device?user_code=BCDF-GHJK`))
      yield* promise(() => page.locator("#user_code-error").waitFor())
      yield* promise(() => expectPageHeaders(pages))
    }))

  it.scoped("the custodian's message leads straight to the custody page, where a click accepts the Silicon", () =>
    Effect.gen(function*() {
      const { page, pages, carbon, email } = yield* signedInBrowser
      const created = yield* call("/v1/silicons", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: `helper${Date.now().toString(36)}`, display_name: "Helper Bot", custodian: `c:${carbon.handle}` })
      })
      expect(created.status).toBe(201)
      const message = yield* lastMessageTo(email).pipe(
        Effect.filterOrFail((sent) => sent.text.includes("/account/custody")),
        Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("30 seconds"))),
        Effect.orDie
      )
      const link = /https?:\/\/\S+\/account\/custody/.exec(message.text)?.[0]
      expect(link).toBeDefined()

      yield* promise(() => page.goto(link!))
      yield* promise(() => page.getByRole("heading", { level: 1, name: "Custody requests" }).waitFor())
      yield* promise(() => page.getByText("asks you to be its custodian").waitFor())
      yield* shot(page, "custody")
      yield* promise(() => page.getByRole("button", { name: "Accept", exact: true }).click())
      yield* promise(() => page.getByText("No request is waiting for you.").waitFor())

      const request = yield* call(`/v1/silicons/requests/${created.body.request.id}`, bearer(created.body.request_token))
      expect(request.body.status).toBe("accepted")
      yield* promise(() => page.getByRole("link", { name: "Account", exact: true }).click())
      yield* promise(() => page.getByText("Helper Bot").waitFor())
      yield* promise(async () => expect(await page.locator("#silicons-title + ul .badge").first().textContent()).toBe("active"))
      yield* promise(() => expectPageHeaders(pages))
    }))

  it.scoped("a page opened on another host name says which address to use", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const { page } = yield* signedInBrowser
      const wrong = url.replace("127.0.0.1", "localhost")
      const answer = (yield* promise(() => page.goto(`${wrong}/device?user_code=ABCD`))) as Response
      expect(answer.status()).toBe(421)
      yield* promise(() => page.getByRole("heading", { level: 1, name: `Open this page at ${url}` }).waitFor())
      yield* shot(page, "wrong-host")
      yield* promise(() => expectPageHeaders([answer]))
      yield* promise(() => page.getByRole("link", { name: `Go to ${url}` }).click())
      yield* promise(() => page.waitForURL(`${url}/device?user_code=ABCD`))
    }))

  it.scoped("an author previews a proposed sign-in setup before saving it", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const appId = `preview-${Date.now().toString(36)}`
      const { secret } = yield* createFakeApp({ appId, name: "Notes", redirectUris: ["https://notes.example.test/cb"], owner: Option.none(), scopeFields: [] })
        .pipe(Effect.orDie, Effect.provide([AccountsRepo.Default, AppsRepo.Default]))
      const authorization = `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}`
      const preview = `${url}/v1/apps/${appId}/signin-config/preview`
      const patch = {
        branding: { theme: "dark" },
        copy: { title: "Welcome back to Notes", subtitle: "<img src=x onerror=alert(1)>", support_email: "help@notes.example.test" }
      }
      const refused = yield* call(`/v1/apps/${appId}/signin-config/preview`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({ branding: { radius: 99 } })
      })
      expect(refused.status).toBe(422)
      expect(Object.keys(refused.body.error.details.fields)).toEqual(["branding.radius"])

      const { page } = yield* freshPage(chromium())
      // A browser cannot navigate with a POST body: the test's route turns the navigation into the author tool's POST.
      yield* promise(() =>
        page.route(preview, (route) =>
          route.continue({
            method: "POST",
            postData: JSON.stringify(patch),
            headers: { ...route.request().headers(), authorization, "content-type": "application/json" }
          }))
      )
      const answer = (yield* promise(() => page.goto(preview))) as Response
      expect(answer.status()).toBe(200)
      yield* promise(() => page.getByRole("heading", { level: 1, name: "Welcome back to Notes" }).waitFor())
      yield* promise(async () => expect(await page.getByText("<img src=x onerror=alert(1)>").isVisible()).toBe(true))
      yield* promise(async () => expect(await page.locator("html").getAttribute("data-theme")).toBe("dark"))
      yield* shot(page, "signin-config-preview")
      yield* promise(() => expectPageHeaders([answer]))
      // Nothing was saved.
      const saved = yield* call(`/v1/apps/${appId}`, { headers: { authorization } })
      expect(saved.body.signin_config.copy.title).toBeNull()
      expect(saved.body.config_version).toBe(1)
    }))

  it.scoped("a request refused before any page exists answers a page to a browser and the envelope to a script", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const { page } = yield* freshPage(chromium())
      const answer = (yield* promise(() => page.goto(`${url}/device?user_code=%01`))) as Response
      expect(answer.status()).toBe(400)
      expect(answer.headers()["content-type"]).toContain("text/html")
      yield* promise(() => page.getByRole("heading", { level: 1, name: "This page could not be shown" }).waitFor())
      yield* promise(async () => expect(await page.getByText("invalid_query").isVisible()).toBe(true))
      yield* shot(page, "request-error")
      yield* promise(() => expectPageHeaders([answer]))

      const html = { accept: "text/html,application/xhtml+xml" }
      const wrongMove = yield* call("/signin/flw_x/fly", { method: "POST", headers: { ...html, origin: url } })
      expect(wrongMove.status).toBe(400)
      expect(wrongMove.headers.get("content-type")).toContain("text/html")
      const wrongMethod = yield* call("/account", { method: "DELETE", headers: html })
      expect(wrongMethod.status).toBe(405)
      expect(wrongMethod.headers.get("allow")).toBe("GET, HEAD")
      expect(wrongMethod.headers.get("content-type")).toContain("text/html")
      // A script asking for JSON, and routes that are not pages, keep the envelope.
      const script = yield* call("/device?user_code=%01", { headers: { accept: "application/json" } })
      expect(script.body.error.code).toBe("invalid_query")
      const api = yield* call("/v1/me?x=%01", { headers: html })
      expect(api.body.error.code).toBe("invalid_query")
    }))
})
