import { HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { html } from "@platform/http"
import { sitePage, siteBrand } from "./layout.ts"

export interface HostSettings {
  readonly publicUrl: string
  readonly trustProxy: boolean
}

/**
 * The host a browser asked for: our own proxy's X-Forwarded-Host when proxies are trusted, else Host.
 * Cookies belong to that host name and the Origin check compares with the public origin, so a page
 * opened as localhost while the site is 127.0.0.1 would fail at its first form.
 */
const askedHost = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string | undefined => {
  const forwarded = trustProxy ? request.headers["x-forwarded-host"]?.split(",").at(-1)?.trim() : undefined
  return (forwarded ?? request.headers["host"])?.toLowerCase()
}

/** The page that names the right address (421 Misdirected Request), keeping the path and query asked for. */
const useThePublicAddress = (publicUrl: string, pathAndQuery: string): HttpServerResponse.HttpServerResponse => {
  const target = new URL(pathAndQuery, publicUrl).href
  const origin = new URL(publicUrl).origin
  return sitePage({
    title: "Use the right address",
    brand: siteBrand,
    status: 421,
    body: html`<h1>Open this page at ${origin}</h1>
<p class="lead">This site answers at <strong>${origin}</strong>. Signing in works only there: your browser keeps the sign-in for the address you used.</p>
<a class="button" href="${target}">Go to ${origin}</a>`
  })
}

/** When the page was opened on another host than the public origin's: the page saying which address to use. */
export const misdirectedPage = (settings: HostSettings) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const expected = new URL(settings.publicUrl).host.toLowerCase()
    const asked = askedHost(request, settings.trustProxy)
    return asked === undefined || asked === expected
      ? Option.none<HttpServerResponse.HttpServerResponse>()
      : Option.some(useThePublicAddress(settings.publicUrl, request.url))
  })
