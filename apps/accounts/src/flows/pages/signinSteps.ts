import type { Method } from "../../apps/signinConfig/fields.ts"
import { type Html, html, type Part } from "@platform/http"
import type { FlowView } from "../FlowView.ts"

/** A refusal of the last move, shown next to the field it concerns (or above the form when none). */
export interface Problem {
  readonly code: string
  readonly message: string
  readonly hint?: string | undefined
  readonly field: string | null
}

export interface StepPage {
  readonly title: string
  readonly body: Html
}

/** Where a step's forms post: a flow's page routes, or nowhere for an author's preview. */
export interface Target {
  readonly action: (move: string) => string
  readonly preview: boolean
}

export const flowTarget = (flowId: string): Target => ({
  action: (move) => `/signin/${encodeURIComponent(flowId)}/${move}`,
  preview: false
})

export const PROVIDER_LABELS: Readonly<Record<"idp_a" | "idp_b", string>> = { idp_a: "Provider A", idp_b: "Provider B" }

type Flow = FlowView

const fieldError = (problem: Problem | null, field: string): Html | null =>
  problem?.field === field
    ? html`<p class="error" id="${field}-error">${problem.message}${problem.hint ? html` ${problem.hint}` : null}</p>`
    : null

const invalid = (problem: Problem | null, field: string): Part =>
  problem?.field === field ? html` aria-invalid="true" aria-describedby="${field}-error"` : null

const alert = (problem: Problem | null, flowError: Flow["error"]): Html | null => {
  const shown = problem !== null && problem.field === null ? problem : problem === null ? flowError : null
  return shown === null ? null : html`<div class="alert" role="alert"><p>${shown.message}${shown.hint ? html` ${shown.hint}` : null}</p></div>`
}

/** One button in its own form: a move with no input. */
const moveButton = (target: Target, move: string, label: Part, style = "secondary", extra: Part = null): Html =>
  html`<form method="post" action="${target.action(move)}"><button type="submit" class="${style}"${extra}>${label}</button></form>`

const cancel = (flow: Flow, target: Target): Html =>
  html`<div class="row">${moveButton(target, "cancel", html`Cancel and return to ${flow.app.name}`, "link")}</div>`

const initials = (name: string): string => (name.trim()[0] ?? "?").toUpperCase()

const accountCard = (account: NonNullable<Flow["signed_in_as"]>): Html =>
  html`<div class="account"><span class="avatar" aria-hidden="true">${initials(account.display_name)}</span>
<span class="account-text"><strong>${account.display_name}</strong><span class="muted small">${account.id}</span></span></div>`

const codeMethod = (target: Target, problem: Problem | null, channel: "email" | "phone"): Html => {
  const email = channel === "email"
  const id = `destination-${channel}`
  return html`<form method="post" action="${target.action("code")}" novalidate>
<input type="hidden" name="channel" value="${channel}">
<div class="field"><label for="${id}">${email ? "Email address" : "Phone number"}</label>
<input id="${id}" name="destination" type="${email ? "email" : "tel"}" autocomplete="${email ? "email" : "tel"}"
 ${email ? null : html`inputmode="tel" `}required${invalid(problem, id)}>
${email ? null : html`<span class="hint">With the country code, such as +44 20 7946 0958.</span>`}
${fieldError(problem, id)}</div>
<button type="submit">${email ? "Continue with email" : "Continue with phone"}</button>
</form>`
}

const providerMethod = (target: Target, method: "idp_a" | "idp_b"): Html =>
  html`<form method="post" action="${target.action("provider")}"><input type="hidden" name="provider" value="${method}">
<button type="submit" class="secondary">Continue with ${PROVIDER_LABELS[method]}</button></form>`

const chooseMethod = (flow: Flow, target: Target, problem: Problem | null): StepPage => {
  const signup = flow.intent === "signup"
  const title = flow.app.copy.title ?? (signup ? `Create your account for ${flow.app.name}` : `Sign in to ${flow.app.name}`)
  const subtitle = flow.app.copy.subtitle ?? "Choose how you want to continue."
  const providers = flow.methods.filter((m): m is "idp_a" | "idp_b" => m === "idp_a" || m === "idp_b")
  const codes = flow.methods.filter((m): m is "email" | "phone" => m === "email" || m === "phone")
  const byMethod = (method: Method): Html =>
    method === "email" || method === "phone" ? codeMethod(target, problem, method) : providerMethod(target, method)
  // Providers first or codes first as the app ordered them, with one divider between the two kinds.
  const ordered = flow.methods.map(byMethod)
  const dividerAt = providers.length > 0 && codes.length > 0
    ? flow.methods.findIndex((m, i) => i > 0 && (m.startsWith("idp_") !== flow.methods[i - 1]!.startsWith("idp_")))
    : -1
  const methods = ordered.map((part, i) => i === dividerAt ? html`<p class="divider">or</p>${part}` : part)
  const signedIn = flow.signed_in_as
  return {
    title,
    body: html`<h1>${title}</h1><p class="lead">${subtitle}</p>
${alert(problem, flow.error)}
${signedIn === null ? null : html`<section class="stack" aria-label="Signed in">${accountCard(signedIn)}
${moveButton(target, "continue", html`Continue as ${signedIn.display_name}`, "primary")}
${moveButton(target, "switch", "Not you? Use another account", "link")}
<p class="divider">or</p></section>`}
<div class="stack">${methods}</div>
${cancel(flow, target)}`
  }
}

const resendNote = "resend-note"

const verifyCode = (flow: Flow, target: Target, problem: Problem | null, now: number): StepPage => {
  const challenge = flow.challenge!
  const email = challenge.channel === "email"
  const title = email ? "Check your email" : "Check your phone"
  const waiting = Date.parse(challenge.resend_available_at) > now
  return {
    title,
    body: html`<h1>${title}</h1>
<p class="lead">We sent a 6-digit code to <strong>${challenge.destination}</strong>. It works for 10 minutes.</p>
${alert(problem, flow.error)}
<form method="post" action="${target.action("verify")}" novalidate>
<div class="field"><label for="code">Code</label>
<input id="code" name="code" class="code-input" inputmode="numeric" autocomplete="one-time-code" maxlength="6" pattern="[0-9]{6}" required data-code${
      invalid(problem, "code")
    }>
${fieldError(problem, "code")}</div>
<button type="submit">Verify</button>
</form>
<div class="stack">
<p class="hint" id="${resendNote}" aria-live="polite">${
      waiting ? "You can ask for a new code in 30 seconds." : "Didn't get it? Ask for a new code."
    }</p>
${moveButton(target, "resend", "Send a new code", "secondary", html` data-resend-at="${challenge.resend_available_at}" aria-describedby="${resendNote}"`)}
${moveButton(target, "switch", email ? "Use another email address" : "Use another phone number", "link")}
</div>
${cancel(flow, target)}`
  }
}

const signupStep = (flow: Flow, target: Target, problem: Problem | null): StepPage => {
  const signup = flow.signup!
  const title = "Create your account"
  const contact = signup.email ?? signup.phone
  return {
    title,
    body: html`<h1>${title}</h1>
<p class="lead">${contact === null ? "Choose how you appear." : html`Signing up with <strong>${contact}</strong>.`}</p>
${alert(problem, flow.error)}
<form method="post" action="${target.action("signup")}" novalidate>
<div class="field"><label for="display_name">Your name</label>
<input id="display_name" name="display_name" type="text" autocomplete="name" maxlength="100" required value="${signup.display_name ?? ""}"${
      invalid(problem, "display_name")
    }>
${fieldError(problem, "display_name")}</div>
<div class="field"><label for="id">Your id</label>
<span class="hint" id="id-hint">Letters, digits and underscores; people find you by it. Leave empty to get one made for you.</span>
<input id="id" name="id" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="40"
 value="${signup.id ?? ""}" data-availability="id-status"${invalid(problem, "id") ?? html` aria-describedby="id-hint id-status"`}>
<p id="id-status" class="hint" aria-live="polite"></p>
${fieldError(problem, "id")}</div>
<input type="hidden" name="timezone" value="${signup.timezone}" data-timezone>
<button type="submit">Create account</button>
</form>
${cancel(flow, target)}`
  }
}

const detailInput = (field: string): { type: string; autocomplete: string } =>
  field === "email" ? { type: "email", autocomplete: "email" } : field === "phone"
  ? { type: "tel", autocomplete: "tel" }
  : { type: "date", autocomplete: "bday" }

const detailsStep = (flow: Flow, target: Target, problem: Problem | null): StepPage => {
  const details = flow.details!
  const missing = details.fields.filter((f) => f.missing && f.field !== "timezone")
  const challenge = details.challenge
  const adding = missing.map((f) => {
    const input = detailInput(f.field)
    const id = `add-${f.field}`
    if (challenge !== null && challenge.field === f.field) {
      return html`<form method="post" action="${target.action("details_verify")}" novalidate>
<input type="hidden" name="field" value="${f.field}">
<div class="field"><label for="detail-code">Code sent to ${challenge.destination}</label>
<input id="detail-code" name="code" class="code-input" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required data-code${
        invalid(problem, "detail-code")
      }>
${fieldError(problem, "detail-code")}</div>
<button type="submit" class="secondary">Verify ${f.label.toLowerCase()}</button></form>`
    }
    return html`<form method="post" action="${target.action("details_add")}" novalidate>
<input type="hidden" name="field" value="${f.field}">
<div class="field"><label for="${id}">${f.label}${f.mode === "required" ? " (required)" : " (optional)"}</label>
<input id="${id}" name="value" type="${input.type}" autocomplete="${input.autocomplete}" required${invalid(problem, id)}>
${fieldError(problem, id)}</div>
<button type="submit" class="secondary">Add ${f.label.toLowerCase()}</button></form>`
  })
  const choices = details.fields.filter((f) => !f.missing).map((f) => {
    const id = `share-${f.field}`
    const required = f.mode === "required"
    return html`<li class="choice"><input type="checkbox" id="${id}" name="${id}" value="on"${f.shared ? " checked" : null}${
      required ? html` disabled aria-describedby="${id}-note"` : null
    }>
<span class="choice-text"><label for="${id}">${f.label}</label><span class="muted">${f.value}</span>${
      required ? html`<span class="hint" id="${id}-note">Required by ${flow.app.name}</span>` : null
    }${f.previously_granted ? html`<span class="hint">Shared before</span>` : null}</span></li>`
  })
  return {
    title: details.title,
    body: html`${details.count > 1 ? html`<p class="steps">Step ${details.index + 1} of ${details.count}</p>` : null}
<h1>${details.title}</h1>${details.subtitle === null ? null : html`<p class="lead">${details.subtitle}</p>`}
${alert(problem, flow.error)}
${flow.signed_in_as === null ? null : accountCard(flow.signed_in_as)}
${adding.length === 0 ? null : html`<div class="stack">${adding}</div>`}
<form method="post" action="${target.action("details_continue")}">
${choices.length === 0 ? null : html`<fieldset class="stack plain"><legend class="sr-only">Details to share</legend><ul class="choices">${choices}</ul></fieldset>`}
<button type="submit">${details.continue_label}</button>
</form>
${details.index > 0 ? moveButton(target, "details_back", "Back", "secondary") : null}
${moveButton(target, "switch", "Not you? Use another account", "link")}
${cancel(flow, target)}`
  }
}

const reviewStep = (flow: Flow, target: Target, problem: Problem | null): StepPage => {
  const shared = flow.review!.fields.filter((f) => f.shared)
  const title = `Review what ${flow.app.name} gets`
  return {
    title,
    body: html`<h1>${title}</h1>
<p class="lead">${flow.app.name} will see your name and id${shared.length > 0 ? ", and:" : "."}</p>
${alert(problem, flow.error)}
${shared.length === 0 ? null : html`<dl class="review">${shared.map((f) => html`<dt>${f.label}</dt><dd>${f.value ?? "—"}</dd>`)}</dl>`}
${
      flow.app.copy.terms_url === null && flow.app.copy.privacy_url === null ? null : html`<p class="muted small">By continuing you accept ${flow.app.name}'s ${
        flow.app.copy.terms_url === null ? null : html`<a href="${flow.app.copy.terms_url}">terms</a>`
      }${flow.app.copy.terms_url !== null && flow.app.copy.privacy_url !== null ? " and " : null}${
        flow.app.copy.privacy_url === null ? null : html`<a href="${flow.app.copy.privacy_url}">privacy policy</a>`
      }.</p>`
    }
${moveButton(target, "review", html`Confirm and continue to ${flow.app.name}`, "primary")}
${moveButton(target, "details_back", "Back", "secondary")}
${cancel(flow, target)}`
  }
}

const finished = (flow: Flow): StepPage => {
  const ok = flow.step === "complete" && flow.error === null
  const title = ok ? "You're signed in" : flow.step === "complete" ? "Sign-in cancelled" : "Could not sign you in"
  return {
    title,
    body: html`<h1>${title}</h1>
${flow.error === null ? null : html`<div class="alert" role="status"><p>${flow.error.message}</p></div>`}
${
      flow.redirect_to === null
        ? html`<p class="lead">You can close this page.</p>`
        : html`<a class="button" href="${flow.redirect_to}">Continue to ${flow.app.name}</a>`
    }`
  }
}

/** The page of a flow's current step. `now` decides whether a new code can be asked for yet. */
export const stepPage = (flow: Flow, target: Target, problem: Problem | null, now: number): StepPage => {
  switch (flow.step) {
    case "choose_method":
      return chooseMethod(flow, target, problem)
    case "verify_code":
      return verifyCode(flow, target, problem, now)
    case "signup":
      return signupStep(flow, target, problem)
    case "details":
      return detailsStep(flow, target, problem)
    case "review":
      return reviewStep(flow, target, problem)
    case "complete":
    case "failed":
      return finished(flow)
  }
}
