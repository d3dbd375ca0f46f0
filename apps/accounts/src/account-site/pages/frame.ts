import type { HttpServerResponse } from "@effect/platform"
import { type Html, html, type Part } from "@platform/http"
import { siteBrand, sitePage } from "../../site/layout.ts"

export type SitePage = "account" | "custody" | "device"

const LINKS: ReadonlyArray<readonly [SitePage, string, string]> = [
  ["account", "/account", "Account"],
  ["custody", "/account/custody", "Custody"],
  ["device", "/device", "Device sign-in"]
]

const nav = (current: SitePage): Html =>
  html`<nav class="site-nav" aria-label="Account site">${
    LINKS.map(([page, href, label]) => html`<a href="${href}"${page === current ? html` aria-current="page"` : null}>${label}</a>`)
  }</nav>`

/** A page for the signed-in person, in the site's own branding. */
export const accountSitePage = (
  current: SitePage,
  title: string,
  body: Html,
  status = 200
): HttpServerResponse.HttpServerResponse =>
  sitePage({
    title,
    brand: siteBrand,
    status,
    account: { nav: nav(current) },
    body: html`${body}<p class="hint" data-no-script>Changes on this page need JavaScript.</p>`
  })

export interface ApiForm {
  /** The account API route the form calls, with its path parameters already encoded. */
  readonly api: string
  readonly method?: "POST" | "PATCH" | "DELETE"
  /** No JSON body (the route takes none). */
  readonly noBody?: boolean
  /** After success: reload the page (default), go to a path, or `reveal:<id>` the form that takes a code. */
  readonly then?: string
  readonly confirm?: string
  readonly className?: string
  readonly label?: string
}

/**
 * A form that calls the account API with the session cookie (site/assets/account.js): the browser adds
 * our Origin, which the API requires of every cookie-authenticated change. Disabled until the script runs.
 */
export const apiForm = (form: ApiForm, content: Part): Html =>
  html`<form data-api="${form.api}" data-method="${form.method ?? "POST"}"${form.noBody ? html` data-body="none"` : null}${
    form.then === undefined ? null : html` data-then="${form.then}"`
  }${form.confirm === undefined ? null : html` data-confirm="${form.confirm}"`}${
    form.label === undefined ? null : html` aria-label="${form.label}"`
  } novalidate><fieldset class="plain stack${form.className === undefined ? "" : ` ${form.className}`}" disabled data-needs-script>${content}<p data-note class="hint" role="status" aria-live="polite"></p></fieldset></form>`

/** A one-button API form. */
export const apiButton = (form: ApiForm, label: Part, style = "secondary"): Html =>
  apiForm({ noBody: true, ...form }, html`<button type="submit" class="${style}">${label}</button>`)

const FORMAT = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })

/** A timestamp as a person reads it, in UTC (the page does not know the reader's zone), machine-readable too. */
export const when = (iso: string): Html => html`<time datetime="${iso}">${FORMAT.format(new Date(iso))} UTC</time>`

export const initials = (name: string): string => (name.trim()[0] ?? "?").toUpperCase()
