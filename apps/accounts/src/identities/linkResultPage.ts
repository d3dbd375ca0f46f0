import { errorPage, sitePage, siteBrand } from "../site/layout.ts"
import { html } from "@platform/http"
import type { LinkOutcome } from "./IdentityLink.ts"

/** What the browser shows at the end of a link's round trip: linked, or why not (with the error value). */
export const linkResultPage = (outcome: LinkOutcome) =>
  outcome.kind === "linked"
    ? sitePage({
      title: "Identity linked",
      brand: siteBrand,
      body: html`<h1>Identity linked</h1>
<p>You can now sign in with it. You may close this window.</p>`
    })
    : errorPage(
      400,
      outcome.code,
      outcome.message,
      "Go back to your account and try linking again; nothing was changed.",
      siteBrand
    )
