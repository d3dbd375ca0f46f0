import type { HttpServerResponse } from "@effect/platform"
import { defaultSigninConfig } from "../apps/signinConfig/defaults.ts"
import type { Branding, Copy } from "../apps/signinConfig/SigninConfig.ts"
import { assetUrl } from "./assets.ts"
import { brandStyle } from "./brandStyle.ts"
import { type Html, html, htmlResponse, pageHeaders, trusted } from "@platform/http"

/** Whose page it is: the app a sign-in is for, or the account site itself. */
export interface Brand {
  readonly name: string
  readonly logo_url: string | null
  readonly logo_dark_url: string | null
  readonly branding: Branding
  readonly copy: Copy
}

export const siteBrand: Brand = {
  name: "Accounts",
  logo_url: null,
  logo_dark_url: null,
  branding: defaultSigninConfig.branding,
  copy: defaultSigninConfig.copy
}

const logo = (brand: Brand): Html => {
  const { logo_url: light, logo_dark_url: dark, branding } = brand
  if (light === null && dark === null) return html`<span class="brand-name">${brand.name}</span>`
  const alt = `${brand.name} logo`
  if (branding.theme === "dark") return html`<img class="logo" src="${dark ?? light}" alt="${alt}">`
  if (branding.theme === "light" || dark === null) return html`<img class="logo" src="${light ?? dark}" alt="${alt}">`
  return html`<picture><source srcset="${dark}" media="(prefers-color-scheme: dark)"><img class="logo" src="${light ?? dark}" alt="${alt}"></picture>`
}

const footer = (copy: Copy): Html => {
  const links = [
    copy.terms_url === null ? null : html`<a href="${copy.terms_url}">Terms</a>`,
    copy.privacy_url === null ? null : html`<a href="${copy.privacy_url}">Privacy</a>`,
    copy.support_email === null ? null : html`<a href="mailto:${copy.support_email}">Help: ${copy.support_email}</a>`
  ].filter((link) => link !== null)
  return html`<footer class="legal">${links.length === 0 ? null : html`<nav aria-label="Legal">${links}</nav>`}<p>Secured by Accounts</p></footer>`
}

export interface PageOptions {
  readonly title: string
  readonly brand: Brand
  readonly body: Html
  readonly status?: number
  readonly headers?: Readonly<Record<string, string>>
  /** A page of the signed-in person's account: wider, with the site's navigation above the card and its own script. */
  readonly account?: { readonly nav: Html }
}

/** A page of the account site: the app's colors, its logo on a card, its legal links below. */
export const sitePage = (options: PageOptions): HttpServerResponse.HttpServerResponse => {
  const { brand } = options
  const style = brandStyle(brand.branding)
  const document = html`<!doctype html>
<html lang="en" data-theme="${brand.branding.theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · ${brand.name}</title>
<link rel="stylesheet" href="${assetUrl("site.css")}">
<style>${trusted(style)}</style>
<script src="${assetUrl("site.js")}" defer></script>
${options.account === undefined ? null : html`<script src="${assetUrl("account.js")}" defer></script>`}
</head>
<body>
<main class="shell${options.account === undefined ? "" : " wide"}">
${options.account?.nav}
<div class="card">
<header class="brand">${logo(brand)}</header>
${options.body}
</div>
${footer(brand.copy)}
</main>
</body>
</html>
`
  return htmlResponse(document, { status: options.status ?? 200, headers: { ...pageHeaders(style), ...options.headers } })
}

/** A refusal shown to the person, never a redirect (an unknown app, an unregistered redirect_uri, a lost flow). */
export const errorPage = (
  status: number,
  code: string,
  message: string,
  advice = "Go back to the app and try again; if it keeps happening, tell the app's makers.",
  brand: Brand = siteBrand
): HttpServerResponse.HttpServerResponse =>
  sitePage({
    title: "Sign-in error",
    brand,
    status,
    body: html`<h1>This sign-in link does not work</h1>
<div class="alert" role="alert"><p>${message}</p></div>
<p class="muted">${advice}</p>
<p class="muted small">Error code: <code>${code}</code></p>`
  })

/** A request the conventions refused before any page existed (a wrong method, a body too large, a bad query), for a browser. */
export const requestErrorPage = (error: { readonly status: number; readonly code: string; readonly message: string }) =>
  sitePage({
    title: "Error",
    brand: siteBrand,
    status: error.status,
    body: html`<h1>This page could not be shown</h1>
<div class="alert" role="alert"><p>${error.message}</p></div>
<p class="muted">Go back and try again.</p>
<p class="muted small">Error code: <code>${error.code}</code></p>`
  })
