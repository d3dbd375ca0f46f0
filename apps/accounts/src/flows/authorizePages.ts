import { HttpServerResponse } from "@effect/platform"
import { errorPage as sitePageError } from "../site/layout.ts"

/** A 302 that is never cached. */
export const found = (location: string) => HttpServerResponse.empty({ status: 302, headers: { location, "cache-control": "no-store" } })

/** After a form's POST: the next page by GET (303), never cached. */
export const seeOther = (location: string) =>
  HttpServerResponse.empty({ status: 303, headers: { location, "cache-control": "no-store" } })

/** A refusal that must not go back to the app: the site's error page, never a redirect. */
export const errorPage = (code: string, message: string, advice?: string): HttpServerResponse.HttpServerResponse =>
  sitePageError(400, code, message, advice)

/** A refusal of a flow (lost, expired, not this browser's, a wrong Origin) as the site's error page, in its status. */
export const refusalPage = (refusal: { readonly code: string; readonly message: string; readonly status: number }) =>
  sitePageError(refusal.status, refusal.code, refusal.message)

/** The address of a flow's page. */
export const flowPageUrl = (flowId: string) => `/authorize?flow=${encodeURIComponent(flowId)}`
