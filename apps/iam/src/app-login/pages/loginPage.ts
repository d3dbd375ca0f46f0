import { type Html, html } from "@platform/http"
import { iamErrorPage, iamPage } from "../../site/layout.ts"
import type { ApplicationCheck, OrganizationChoice } from "../Api.ts"
import type { LoginApplication } from "../LoginApplication.ts"
import { scopeLabel } from "../scopeLabels.ts"

type Organization = typeof OrganizationChoice.Type
type InvalidCheck = Extract<ApplicationCheck, { valid: false }>

export interface ShownApplication {
  readonly app: LoginApplication
  /** Consent is required and the person's consent does not cover the permissions as they are now. */
  readonly askConsent: boolean
}

/** What the login page shows: the sign-in by code first, or (signed in) the approval. */
export type LoginView =
  | { readonly _tag: "SignIn"; readonly applications: ReadonlyArray<LoginApplication> }
  | {
    readonly _tag: "Approve"
    readonly person: { readonly display_name: string; readonly id: string }
    readonly applications: ReadonlyArray<ShownApplication>
    readonly organizations: ReadonlyArray<Organization>
    readonly returnTo: string
  }

const heading = (applications: ReadonlyArray<LoginApplication>): string =>
  applications.length === 1 ? `Sign in to ${applications[0]!.name}` : `Sign in to ${applications.length} applications`

const applicationList = (applications: ReadonlyArray<LoginApplication>, approving: boolean): Html =>
  html`<ul class="apps" aria-label="Applications">${
    applications.map((app) =>
      html`<li class="app"${
        approving ? html` data-app-id="${app.app_id}" data-scope-version="${app.scope_version}" data-scopes="${app.app_scope.join(" ")}"` : null
      }><h3>${app.name}</h3><p class="muted small">${app.app_id}</p>
<p class="small">It will be able to:</p><ul class="perms small">${app.app_scope.map((scope) => html`<li>${scopeLabel(scope)}</li>`)}</ul></li>`
    )
  }</ul>`

const signIn = (): Html =>
  html`<section aria-labelledby="signin-title">
<h2 id="signin-title">First, sign in to IAM</h2>
<form id="email-form" novalidate><fieldset disabled data-needs-script>
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" required>
<button type="submit">Send me a code</button>
<p data-note class="small" role="status" aria-live="polite"></p>
</fieldset></form>
<form id="code-form" hidden novalidate><fieldset>
<p>We sent a six-digit code to <strong data-destination></strong>.</p>
<label for="code">Code</label>
<input id="code" name="code" type="text" class="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required>
<button type="submit">Verify</button>
<p data-note class="small" role="status" aria-live="polite"></p>
</fieldset></form>
<p class="small muted" data-no-script>Signing in needs JavaScript.</p>
</section>`

const consent = (asked: ReadonlyArray<ShownApplication>): Html =>
  html`<section id="consent" aria-labelledby="consent-title">
<h2 id="consent-title">Your consent</h2>
<p>${asked.map((shown) => shown.app.name).join(", ")} ${asked.length === 1 ? "asks" : "ask"} for your consent to the permissions listed above.</p>
<button type="button" id="allow" disabled data-needs-script>Allow</button>
<p data-consent-given class="notice small" hidden>You allowed the permissions listed above.</p>
</section>`

const organizationPicker = (view: Extract<LoginView, { _tag: "Approve" }>, waitForConsent: boolean): Html =>
  view.organizations.length === 0
    ? html`<div class="alert" role="alert"><p>You are not an active member of any organization, so you cannot sign in to these applications.</p></div>`
    : html`<section id="organizations" aria-labelledby="orgs-title"${waitForConsent ? html` hidden` : null}>
<h2 id="orgs-title">Organizations</h2>
<form id="approve-form" data-return-to="${view.returnTo}" novalidate><fieldset disabled data-needs-script>
<legend>Sign in with these organizations (choose at least one)</legend>
<ul class="orgs">${
      view.organizations.map((org, index) =>
        html`<li class="org"><input type="checkbox" id="org-${index}" name="org_id" value="${org.organization_id}"><label for="org-${index}">${org.name} <span class="muted small">(${org.role})</span></label></li>`
      )
    }</ul>
<button type="submit">Continue</button>
<p data-note class="small" role="status" aria-live="polite"></p>
</fieldset></form>
</section>`

/** The login page: GET only ever renders it; tokens are made by its Continue (POST /login/tokens). */
export const loginPage = (view: LoginView) => {
  if (view._tag === "SignIn") {
    return iamPage({
      title: heading(view.applications),
      scripts: ["login.js"],
      body: html`<h1>${heading(view.applications)}</h1>
${applicationList(view.applications, false)}
${signIn()}`
    })
  }
  const apps = view.applications.map((shown) => shown.app)
  const asked = view.applications.filter((shown) => shown.askConsent)
  return iamPage({
    title: heading(apps),
    scripts: ["login.js"],
    body: html`<h1>${heading(apps)}</h1>
<p class="muted">Signed in as ${view.person.display_name} (${view.person.id}).</p>
${applicationList(apps, true)}
${asked.length === 0 ? null : consent(asked)}
${organizationPicker(view, asked.length > 0)}
<p class="small muted" data-no-script>Continuing needs JavaScript.</p>`
  })
}

const PROBLEMS: Readonly<Record<InvalidCheck["problem"], string>> = {
  unknown: "is not a registered application"
}

/** Some application of the login cannot be signed in to: the whole login is refused, each reason named. */
export const invalidApplicationsPage = (invalid: ReadonlyArray<InvalidCheck>) =>
  iamErrorPage({
    status: 400,
    code: "application_unavailable",
    message: invalid.map((check) => `${check.app_id} ${PROBLEMS[check.problem]}.`).join(" ")
  })
