import { expect } from "@effect/vitest"
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { AccountsUnderTest } from "./AccountsUnderTest.ts"
import type { Browser } from "./browser.ts"
import { FakeIdpBServer } from "./fakeIdp.ts"
import { fetchAnswer } from "./http.ts"
import { browser, run, startFlow } from "./flows.ts"

/** What the provider round-trip tests share: the way back from a provider's callback, and a refused round trip. */

/**
 * The browser at the provider's callback (a path with its query): sent (302) to the flow's hosted page,
 * which answers, then the GET of the flow that claims the answer; the flow as claimed.
 */
export const claimAfterCallback = (b: Browser, flowId: string, callback: string) =>
  Effect.gen(function*() {
    const back = yield* run(() => b.get(callback))
    expect(back.status).toBe(302)
    expect(back.headers.get("location")).toBe(`${b.origin}/authorize?flow=${flowId}`)
    const page = yield* run(() => b.get(`/authorize?flow=${flowId}`))
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    const claimed = yield* run(() => b.get(`/v1/flows/${flowId}`))
    expect(claimed.status).toBe(200)
    return claimed.body.flow
  })

/**
 * The flow's error after a round trip in a new flow of the app, the flow staying at choose_method
 * with no session and no sign-up.
 */
export const refusedAfter = <R>(
  app: Effect.Effect<{ readonly appId: string }, never, SqlClient.SqlClient | AccountsUnderTest>,
  roundTrip: (b: Browser, flowId: string) => Effect.Effect<{ readonly claimed: any }, never, R>
) =>
  Effect.gen(function*() {
    const { appId } = yield* app
    const b = yield* browser
    const flowId: string = (yield* startFlow(b, appId)).body.flow.id
    const { claimed } = yield* roundTrip(b, flowId)
    expect(claimed.step).toBe("choose_method")
    expect(b.cookies.has("sa_session")).toBe(false)
    expect(b.cookies.has("sa_signup")).toBe(false)
    return claimed.error.code
  })

const unescapeHtml = (value: string) =>
  value.replace(/&quot;/g, "\"").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")

/** The provider's auto-submitting form, read as a browser would: where it posts, and its fields. */
export const readForm = (html: string) => {
  const action = unescapeHtml(/<form method="post" action="([^"]*)"/.exec(html)![1]!)
  const fields = new URLSearchParams(
    [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map(([, name, value]): [string, string] => [
      unescapeHtml(name!),
      unescapeHtml(value!)
    ])
  )
  return { action, fields }
}

/** The form submitted from the provider's page: a cross-site POST, so no cookie of ours goes with it. */
export const submit = (action: string, fields: URLSearchParams) =>
  Effect.flatMap(FakeIdpBServer, (idp) =>
    run(() =>
      fetchAnswer(action, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: idp.issuer },
        body: fields.toString()
      })
    ))
