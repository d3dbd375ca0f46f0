import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "../support/AccountsUnderTest.ts"
import { chromiumForFile, expectAccessible, expectPageHeaders, recordPages } from "@platform/testkit/chromium"
import { authorizeQuery, makeFlowApp, setSigninConfig } from "../support/flows.ts"

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

const chromium = chromiumForFile()

const SCRIPT = "<script>window.__ran = 'script'</script>"
const ATTRIBUTE = "\"><img src=x onerror=\"window.__ran = 'onerror'\">"

layer(AccountsTest(), { excludeTestServices: true })("markup in an app's name and signin_config texts", (it) => {
  it.scoped("is shown as text: nothing runs, no element is made, the headers hold", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const appId = yield* makeFlowApp({ terms: true })
      const name = `Evil ${SCRIPT}${ATTRIBUTE}`
      // Straight into the database: the API's own checks are not what this test relies on.
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE apps SET name = ${name} WHERE app_id = ${appId}`).pipe(Effect.orDie)
      yield* setSigninConfig(appId, ["copy", "title"], `Title ${SCRIPT}${ATTRIBUTE}`)
      yield* setSigninConfig(appId, ["copy", "subtitle"], `Subtitle ${ATTRIBUTE}${SCRIPT}`)
      yield* setSigninConfig(appId, ["copy", "support_email"], `x${ATTRIBUTE}@example.com`)
      yield* setSigninConfig(appId, ["copy", "privacy_url"], `https://app.example/p${ATTRIBUTE}`)

      const context = yield* Effect.acquireRelease(promise(() => chromium().newContext()), (c) => promise(() => c.close()))
      const page = yield* promise(() => context.newPage())
      const dialogs: Array<string> = []
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message())
        void dialog.dismiss()
      })
      const pages = recordPages(page, url)
      yield* promise(() => page.goto(`${url}/authorize?${authorizeQuery(appId)}`))
      yield* promise(() => page.getByRole("heading", { level: 1 }).waitFor())

      const seen = yield* promise(() =>
        page.evaluate(`({
          ran: window.__ran ?? null,
          images: document.querySelectorAll("img").length,
          scripts: [...document.querySelectorAll("script")].map((s) => s.getAttribute("src")),
          heading: document.querySelector("h1")?.textContent ?? "",
          lead: document.querySelector(".lead")?.textContent ?? "",
          brand: document.querySelector(".brand")?.textContent ?? ""
        })`) as Promise<{
          ran: string | null
          images: number
          scripts: ReadonlyArray<string | null>
          heading: string
          lead: string
          brand: string
        }>
      )
      expect(seen.ran).toBeNull()
      expect(dialogs).toEqual([])
      expect(seen.images).toBe(0)
      expect(seen.scripts).toHaveLength(1)
      expect(seen.scripts[0]).toMatch(/^\/assets\/site\.[0-9a-f]{12}\.js$/)
      expect(seen.heading).toBe(`Title ${SCRIPT}${ATTRIBUTE}`)
      expect(seen.lead).toBe(`Subtitle ${ATTRIBUTE}${SCRIPT}`)
      expect(seen.brand).toBe(name)
      yield* promise(() => expectAccessible(page, "markup"))
      yield* promise(() => expectPageHeaders(pages))
    }))

  it.scoped("the site's assets are hashed and immutable; an unknown flow is an error page, never a redirect", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const context = yield* Effect.acquireRelease(promise(() => chromium().newContext()), (c) => promise(() => c.close()))
      const page = yield* promise(() => context.newPage())
      const pages = recordPages(page, url)
      const assets: Array<{ url: string; cache: string | undefined }> = []
      page.on("response", (response) => {
        if (response.url().includes("/assets/")) assets.push({ url: response.url(), cache: response.headers()["cache-control"] })
      })
      const answer = yield* promise(() => page.goto(`${url}/authorize?flow=flw_unknown`))
      expect(answer!.status()).toBe(404)
      expect(page.url()).toBe(`${url}/authorize?flow=flw_unknown`)
      yield* promise(() => page.getByRole("heading", { level: 1, name: "This sign-in link does not work" }).waitFor())
      yield* promise(() => page.getByText("flow_not_found").waitFor())
      yield* promise(() => page.waitForLoadState("load"))
      expect(assets.map((a) => a.cache)).toEqual(["public, max-age=31536000, immutable", "public, max-age=31536000, immutable"])
      yield* promise(() => expectAccessible(page, "error page"))
      // The error page answered 404: recordPages keeps successful pages, so check its headers directly.
      expect(pages).toHaveLength(0)
      yield* promise(() => expectPageHeaders([answer!]))
    }))
})
