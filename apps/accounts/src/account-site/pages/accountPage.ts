import type { CarbonRow } from "../../accounts/AccountRow.ts"
import type { Contact } from "../../contacts/Contact.ts"
import type { Session } from "../../oauth/Signin.ts"
import type { CustodianRequest } from "../../silicons/CustodianRequest.ts"
import { PROVIDER_LABELS } from "../../flows/pages/signinSteps.ts"
import { type Html, html } from "@platform/http"
import { accountSitePage, apiButton, apiForm, initials, when } from "./frame.ts"

/** A Silicon in the person's custody, as the custodian's view shows it. */
export interface SiliconInCustody {
  readonly uuid: string
  readonly id: string | null
  readonly display_name: string
  readonly status: string
  readonly pending_transfer: CustodianRequest | null
}

/** An external identity linked to the account. */
export interface IdentityOnPage {
  readonly id: string
  readonly provider: "idp_a" | "idp_b"
  readonly email: string | null
  readonly linked_at: string
}

export interface AccountPageData {
  readonly carbon: CarbonRow
  readonly emails: ReadonlyArray<Contact>
  readonly phones: ReadonlyArray<Contact>
  readonly identities: ReadonlyArray<IdentityOnPage>
  readonly sessions: ReadonlyArray<typeof Session.Type>
  readonly silicons: ReadonlyArray<SiliconInCustody>
  readonly pendingRequests: number
}

const segment = encodeURIComponent

const profile = (carbon: CarbonRow): Html =>
  html`<section class="stack" aria-labelledby="profile-title">
<div class="account">${
    carbon.pfp_url === null
      ? html`<span class="avatar large" aria-hidden="true">${initials(carbon.display_name)}</span>`
      : html`<img class="photo" src="${carbon.pfp_url}" alt="Your photo">`
  }<span class="account-text"><h1 id="profile-title">${carbon.display_name}</h1><span class="muted">c:${carbon.handle}</span></span></div>
${
    apiForm(
      { api: "/v1/me", method: "PATCH", className: "inline", label: "Display name" },
      html`<div class="field"><label for="display_name">Display name</label>
<input id="display_name" name="display_name" type="text" autocomplete="name" maxlength="100" required value="${carbon.display_name}"></div>
<button type="submit" class="secondary">Save name</button>`
    )
  }
${
    apiForm(
      { api: "/v1/me/photo", className: "inline", label: "Photo" },
      html`<div class="field"><label for="photo">Photo</label>
<input id="photo" name="photo" type="file" accept="image/png,image/jpeg,image/webp,image/gif">
<span class="hint">PNG, JPEG, WebP or GIF, at most 2 MB.</span></div>
<button type="submit" class="secondary">Upload photo</button>`
    )
  }
${carbon.pfp_url === null ? null : apiButton({ api: "/v1/me/photo", method: "DELETE", label: "Remove photo" }, "Remove photo", "link")}
</section>`

const CHANNELS = {
  email: { path: "emails", title: "Emails", one: "email", label: "Email address", type: "email", autocomplete: "email" },
  phone: { path: "phones", title: "Phones", one: "phone", label: "Phone number", type: "tel", autocomplete: "tel" }
} as const

const contacts = (channel: "email" | "phone", items: ReadonlyArray<Contact>): Html => {
  const words = CHANNELS[channel]
  const base = `/v1/me/${words.path}`
  const verifyId = `verify-${channel}`
  const rows = items.map((contact) => {
    const at = `${base}/${segment(contact.address)}`
    return html`<li class="item"><span class="item-text"><span>${contact.address}${
      contact.primary ? html`<span class="badge">Primary</span>` : null
    }${contact.verified ? null : html`<span class="badge">Not verified</span>`}</span>
<span class="hint">Added ${when(contact.added_at)}</span></span>
<span class="item-actions">${
      contact.verified
        ? null
        : apiForm(
          { api: base, then: `reveal:${verifyId}`, label: `Verify ${contact.address}` },
          html`<input type="hidden" name="${words.one}" value="${contact.address}"><button type="submit" class="secondary">Send code</button>`
        )
    }${
      contact.verified && !contact.primary
        ? apiButton({ api: `${at}/primary`, label: `Make ${contact.address} primary` }, "Make primary")
        : null
    }${apiButton({ api: at, method: "DELETE", label: `Remove ${contact.address}` }, "Remove")}</span></li>`
  })
  return html`<section class="section" aria-labelledby="${channel}-title"><h2 id="${channel}-title">${words.title}</h2>
${rows.length === 0 ? html`<p class="muted">None yet.</p>` : html`<ul class="items">${rows}</ul>`}
${
    apiForm(
      { api: base, then: `reveal:${verifyId}`, className: "inline", label: `Add ${words.one}` },
      html`<div class="field"><label for="add-${channel}">Add ${words.label.toLowerCase()}</label>
<input id="add-${channel}" name="${words.one}" type="${words.type}" autocomplete="${words.autocomplete}" required></div>
<button type="submit" class="secondary">Send code</button>`
    )
  }
<div id="${verifyId}" hidden>${
    apiForm(
      { api: `${base}/verify`, className: "inline", label: `Verify ${words.one}` },
      html`<input type="hidden" name="challenge_id" value="">
<div class="field"><label for="${verifyId}-code">Code sent to <span data-destination></span></label>
<input id="${verifyId}-code" name="code" class="code-input" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required data-code></div>
<button type="submit">Verify</button>`
    )
  }</div>
</section>`
}

const identities = (items: ReadonlyArray<IdentityOnPage>): Html =>
  html`<section class="section" aria-labelledby="identities-title"><h2 id="identities-title">Linked identities</h2>
<p class="muted small">Accounts at other providers you can sign in with. Unlinking one stops it signing you in.</p>
${
    items.length === 0
      ? html`<p class="muted">None linked.</p>`
      : html`<ul class="items">${
        items.map((identity) =>
          html`<li class="item"><span class="item-text"><span>${PROVIDER_LABELS[identity.provider]}</span>
<span class="hint">${identity.email ?? "no email"} · linked ${when(identity.linked_at)}</span></span>
<span class="item-actions">${
            apiButton(
              {
                api: `/v1/me/identities/${segment(identity.id)}`,
                method: "DELETE",
                label: `Unlink ${PROVIDER_LABELS[identity.provider]}`
              },
              "Unlink"
            )
          }</span></li>`
        )
      }</ul>`
  }
</section>`

const sessionLabel = (session: typeof Session.Type): string =>
  session.client_label ?? (session.client_id === "accounts" ? "Accounts" : session.client_id)

const sessions = (items: ReadonlyArray<typeof Session.Type>): Html =>
  html`<section class="section" aria-labelledby="sessions-title"><h2 id="sessions-title">Sessions</h2>
<p class="muted small">Where you are signed in. Revoking a session signs that place out at once.</p>
<ul class="items">${
    items.map((session) =>
      html`<li class="item"><span class="item-text"><span>${sessionLabel(session)}${
        session.current ? html`<span class="badge">This browser</span>` : null
      }</span><span class="hint">Signed in with ${session.method} on ${when(session.created_at)}; last used ${when(session.last_used_at)}</span></span>
<span class="item-actions">${
        apiButton(
          { api: `/v1/me/sessions/${segment(session.id)}`, method: "DELETE", then: session.current ? "/" : "reload", label: `Revoke ${sessionLabel(session)}` },
          session.current ? "Sign out" : "Revoke"
        )
      }</span></li>`
    )
  }</ul>
${
    apiButton(
      { api: "/v1/me/sessions", method: "DELETE", then: "/", confirm: "Sign out everywhere, this browser included?" },
      "Sign out everywhere"
    )
  }
</section>`

const silicons = (items: ReadonlyArray<SiliconInCustody>, pending: number): Html =>
  html`<section class="section" aria-labelledby="silicons-title"><h2 id="silicons-title">Silicons in your custody</h2>
${
    pending === 0 ? null : html`<p class="notice">${pending === 1 ? "1 custody request is" : `${pending} custody requests are`} waiting for you. <a href="/account/custody">Review custody requests</a></p>`
  }
${
    items.length === 0
      ? html`<p class="muted">No Silicon is in your custody.</p>`
      : html`<ul class="items">${
        items.map((silicon) =>
          html`<li class="item"><span class="item-text"><span>${silicon.display_name}<span class="badge">${silicon.status}</span>${
            silicon.pending_transfer === null ? null : html`<span class="badge">Transfer pending</span>`
          }</span><span class="hint">${silicon.id ?? "no id"}</span></span></li>`
        )
      }</ul>`
  }
</section>`

/** The account page: profile, emails, phones, linked identities, sessions, Silicons in custody. */
export const accountPage = (data: AccountPageData) =>
  accountSitePage(
    "account",
    "Your account",
    html`${profile(data.carbon)}
${contacts("email", data.emails)}
${contacts("phone", data.phones)}
${identities(data.identities)}
${sessions(data.sessions)}
${silicons(data.silicons, data.pendingRequests)}`
  )
