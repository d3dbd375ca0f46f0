import type { HttpServerResponse } from "@effect/platform"
import { type Html, html, htmlResponse, pageHeaders } from "@platform/http"
import { IAM_ASSETS } from "./assets.ts"

export interface IamPageOptions {
  readonly title: string
  readonly body: Html
  readonly status?: number
  /** Page scripts of assets/ (same origin only, by the Content-Security-Policy). */
  readonly scripts?: ReadonlyArray<string>
}

/** A page of IAM: its style sheet, its scripts, the body on a card; no inline script or style. */
export const iamPage = (options: IamPageOptions): HttpServerResponse.HttpServerResponse => {
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · IAM</title>
<link rel="stylesheet" href="${IAM_ASSETS.url("iam.css")}">
${(options.scripts ?? []).map((name) => html`<script src="${IAM_ASSETS.url(name)}" defer></script>`)}
</head>
<body>
<main class="shell">
<div class="card">
<header class="brand"><span class="brand-name">Organization IAM</span></header>
${options.body}
</div>
</main>
</body>
</html>
`
  return htmlResponse(document, { status: options.status ?? 200, headers: pageHeaders() })
}

/** A refusal shown to the person (never a redirect to somewhere unchecked). */
export const iamErrorPage = (
  error: { readonly status: number; readonly code: string; readonly message: string },
  advice = "Go back to the application and try again; if it keeps happening, tell its makers."
): HttpServerResponse.HttpServerResponse =>
  iamPage({
    title: "Error",
    status: error.status,
    body: html`<h1>This page could not be shown</h1>
<div class="alert" role="alert"><p>${error.message}</p></div>
<p class="muted">${advice}</p>
<p class="muted small">Error code: <code>${error.code}</code></p>`
  })
