import type { CustodianRequest } from "../../silicons/CustodianRequest.ts"
import { type Html, html } from "@platform/http"
import type { SiliconInCustody } from "./accountPage.ts"
import { accountSitePage, apiButton, when } from "./frame.ts"

const segment = encodeURIComponent

const nameOf = (summary: CustodianRequest["silicon"]): string => `${summary.display_name} (${summary.id ?? "no id"})`

const incoming = (request: CustodianRequest): Html => {
  const asks = request.kind === "initial"
    ? html`<strong>${request.silicon.display_name}</strong> asks you to be its custodian.`
    : html`<strong>${request.from === null ? "A custodian" : nameOf(request.from)}</strong> wants to hand <strong>${request.silicon.display_name}</strong> over to you.`
  const at = `/v1/me/custodian-requests/${segment(request.id)}`
  return html`<li class="item"><span class="item-text"><span>${asks}</span>
<span class="hint">Silicon ${request.silicon.id ?? "without an id"} · asked ${when(request.created_at)} · until ${when(request.expires_at)}</span></span>
<span class="item-actions">${apiButton({ api: `${at}/accept`, label: `Accept ${request.silicon.display_name}` }, "Accept", "primary")}${
    apiButton({ api: `${at}/decline`, label: `Decline ${request.silicon.display_name}` }, "Decline")
  }</span></li>`
}

const outgoing = (silicon: SiliconInCustody & { readonly pending_transfer: CustodianRequest }): Html =>
  html`<li class="item"><span class="item-text"><span><strong>${silicon.display_name}</strong> to ${
    silicon.pending_transfer.to === null ? "an email address" : nameOf(silicon.pending_transfer.to)
  }</span><span class="hint">Asked ${when(silicon.pending_transfer.created_at)} · until ${when(silicon.pending_transfer.expires_at)}</span></span>
<span class="item-actions">${
    apiButton({ api: `/v1/me/silicons/${segment(silicon.uuid)}/transfer/cancel`, label: `Cancel the transfer of ${silicon.display_name}` }, "Cancel transfer")
  }</span></li>`

/**
 * Custody: requests waiting for this Carbon (a new Silicon asking for a custodian, a transfer to it),
 * with accept and decline, and its own transfers still pending. The custodian's message links here.
 */
export const custodyPage = (requests: ReadonlyArray<CustodianRequest>, silicons: ReadonlyArray<SiliconInCustody>) => {
  const transfers = silicons.filter((s): s is SiliconInCustody & { readonly pending_transfer: CustodianRequest } =>
    s.pending_transfer !== null
  )
  return accountSitePage(
    "custody",
    "Custody requests",
    html`<h1>Custody requests</h1>
<p class="lead">A Silicon's custodian answers for it. Accept only a Silicon you know.</p>
<section class="stack" aria-labelledby="incoming-title"><h2 id="incoming-title">Waiting for you</h2>
${requests.length === 0 ? html`<p class="muted">No request is waiting for you.</p>` : html`<ul class="items">${requests.map(incoming)}</ul>`}
</section>
<section class="section" aria-labelledby="outgoing-title"><h2 id="outgoing-title">Your pending transfers</h2>
${transfers.length === 0 ? html`<p class="muted">You are not handing any Silicon over.</p>` : html`<ul class="items">${transfers.map(outgoing)}</ul>`}
</section>`
  )
}
