import { afterAll, beforeAll, expect } from "@effect/vitest"
import { Effect } from "effect"
import axe from "axe-core"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { type Browser, type BrowserContext, chromium, type Page, type Response } from "playwright-core"

/** Debian's Chromium (never a downloaded browser), headless. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })

/** One Chromium for the test file: launched before its tests, closed after them. Call at the file's top level. */
export const chromiumForFile = (): (() => Browser) => {
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
  })
  return () => {
    if (browser === undefined) throw new Error("Chromium is launched before the file's tests, not at import")
    return browser
  }
}

/** Where screenshots go: test-artifacts/ at the repository root. */
const ARTIFACTS = join(import.meta.dirname, "..", "..", "..", "test-artifacts")

/**
 * Every page a site answered a page with (HTML documents of our origin), kept so that a
 * test can assert the headers of each.
 */
export const recordPages = (page: Page, origin: string): Array<Response> => {
  const pages: Array<Response> = []
  page.on("response", (response) => {
    if (response.request().resourceType() === "document" && response.url().startsWith(origin) && response.status() < 300) {
      pages.push(response)
    }
  })
  return pages
}

/** The security headers every page of our sites carries. */
export const expectPageHeaders = async (responses: ReadonlyArray<Response>) => {
  expect(responses.length).toBeGreaterThan(0)
  for (const response of responses) {
    const headers = await response.allHeaders()
    const csp = headers["content-security-policy"] ?? ""
    expect(csp, response.url()).toContain("script-src 'self'")
    expect(csp).toMatch(/style-src 'self'( 'sha256-[A-Za-z0-9+/=]+')?(;|$)/)
    expect(csp).not.toContain("unsafe-inline")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(headers["x-content-type-options"]).toBe("nosniff")
    expect(headers["referrer-policy"]).toBe("strict-origin")
    expect(headers["cache-control"]).toBe("no-store")
  }
}

/** axe-core in the page: no serious or critical violation. */
export const expectAccessible = async (page: Page, step: string) => {
  await page.evaluate(axe.source)
  // Written as text: it runs in the page, and the tests are compiled without the DOM's types.
  const violations = await page.evaluate(`axe.run(document, { resultTypes: ["violations"] }).then((result) =>
    result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`) as ReadonlyArray<string>
  expect(violations, step).toEqual([])
}

/** Screenshots of the page at a phone's and a desktop's width, under test-artifacts/<folder>/ (the account site's: site). */
export const screenshots = async (page: Page, name: string, folder = "site") => {
  const dir = join(ARTIFACTS, folder)
  mkdirSync(dir, { recursive: true })
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true })
  }
}

/** Tab until the element matching `selector` has the focus (at most 30 presses). */
export const tabTo = async (page: Page, selector: string) => {
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press("Tab")
    if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return
  }
  throw new Error(`Tab never reached ${selector}`)
}

/** A fresh context of `browser` (its own cookies) and a page in it, closed with the scope. */
export const freshPage = (browser: Browser) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      return { context, page: await context.newPage() }
    }),
    ({ context }: { context: BrowserContext; page: Page }) => Effect.promise(() => context.close())
  )
