import type { DeviceRequest } from "../../device/DeviceRequest.ts"
import { type Html, html } from "@platform/http"
import { accountSitePage, apiButton, when } from "./frame.ts"

/** What the device page shows: a form for the code, the request a code names, or why a code names none. */
export type DeviceView =
  | { readonly _tag: "Ask" }
  | { readonly _tag: "Refused"; readonly typed: string; readonly message: string; readonly status: number }
  | { readonly _tag: "Found"; readonly request: DeviceRequest }

const codeForm = (typed: string, problem: string | null): Html =>
  html`<form method="get" action="/device" novalidate>
<div class="field"><label for="user_code">Code shown on your device</label>
<input id="user_code" name="user_code" class="code-input" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="32"
 placeholder="XXXX-XXXX" value="${typed}" required${problem === null ? null : html` aria-invalid="true" aria-describedby="user_code-error"`}>
${problem === null ? null : html`<p class="error" id="user_code-error">${problem}</p>`}</div>
<button type="submit">Continue</button>
</form>`

const decided = (request: DeviceRequest): Html =>
  request.status === "approved"
    ? html`<div class="notice" role="status"><p><strong>Approved.</strong> Go back to your device: it signs in within a few seconds.</p></div>`
    : html`<div class="notice" role="status"><p><strong>Denied.</strong> The device was not signed in.</p></div>`

const found = (request: DeviceRequest): Html => {
  const at = `/v1/device/${encodeURIComponent(request.user_code)}`
  return html`<p class="user-code" aria-label="Code">${request.user_code}</p>
<dl class="review">
<dt>Asked by</dt><dd>${request.client_id === "accounts" ? "The Accounts command-line tools" : request.client_id}</dd>
<dt>Device's own name</dt><dd>${request.client_label === null ? "none given" : html`“${request.client_label}” <span class="hint">(chosen by the device)</span>`}</dd>
<dt>Asked at</dt><dd>${when(request.created_at)}</dd>
<dt>Code works until</dt><dd>${when(request.expires_at)}</dd>
</dl>
${
    request.status === "pending"
      ? html`<p class="muted">Approve only if you started this sign-in yourself and the code matches the one on your device. Approving signs that device in to your account.</p>
<div class="stack">${apiButton({ api: `${at}/approve`, label: "Approve the device" }, "Approve and sign the device in", "primary")}${
        apiButton({ api: `${at}/deny`, label: "Deny the device" }, "Deny")
      }</div>`
      : decided(request)
  }`
}

/** The device flow's verification page: type or confirm the code, see who asks, approve or deny. */
export const devicePage = (view: DeviceView) =>
  accountSitePage(
    "device",
    "Sign in a device",
    html`<h1>Sign in a device</h1>
${
      view._tag === "Found"
        ? found(view.request)
        : html`<p class="lead">Enter the code your device shows, to sign it in to your account.</p>
${codeForm(view._tag === "Refused" ? view.typed : "", view._tag === "Refused" ? view.message : null)}`
    }`,
    view._tag === "Refused" ? view.status : 200
  )
