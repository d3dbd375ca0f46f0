import { HttpServerResponse } from "@effect/platform"
import { randomBytes } from "node:crypto"

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

const PAGE_HEADERS = {
  "cache-control": "no-store",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer"
}

const csp = (nonce: string | null) =>
  nonce === null
    ? "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    : `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`

/** A 302 that is never cached. */
export const found = (location: string) => HttpServerResponse.empty({ status: 302, headers: { location, "cache-control": "no-store" } })

/** A refusal that must not go back to the app: plain HTML, never a redirect. */
export const errorPage = (
  code: string,
  message: string,
  advice = "Go back to the app and try again; if it keeps happening, tell the app's makers."
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head>` +
      `<body><h1>This sign-in link does not work</h1><p>${escapeHtml(message)}</p><p><code>${escapeHtml(code)}</code></p>` +
      `<p>${escapeHtml(advice)}</p></body></html>`,
    { status: 400, contentType: "text/html; charset=utf-8", headers: { ...PAGE_HEADERS, "content-security-policy": csp(null) } }
  )

/**
 * The plain hosted page (the designed one comes later): its script starts
 * the flow with the page's own query, as JSON, or with `?flow=<id>` alone
 * resumes that flow (after an identity provider's round trip), then walks the
 * flow API one step at a time with the same calls any script with a cookie
 * jar can make.
 */
const SCRIPT = String.raw`
const root = document.getElementById("flow");
const el = (tag, text) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; return e; };
const call = (path, body) => fetch(path, { method: "POST", credentials: "same-origin",
  headers: { "content-type": "application/json" }, body: JSON.stringify(body || {}) }).then((r) => r.json());
const form = (label, fields, submit) => {
  const f = el("form"); f.append(el("p", label));
  const inputs = fields.map((name) => { const i = el("input"); i.name = name; i.placeholder = name; f.append(i); return i; });
  const b = el("button", "Continue"); f.append(b);
  f.onsubmit = (ev) => { ev.preventDefault(); submit(inputs.map((i) => i.value)); };
  return f;
};
let flow;
const show = (answer) => {
  root.replaceChildren();
  if (answer.error) { root.append(el("p", answer.error.message)); }
  if (answer.flow) flow = answer.flow;
  if (!flow) return;
  if (flow.redirect_to) { location.replace(flow.redirect_to); return; }
  const at = (p) => "/v1/flows/" + encodeURIComponent(flow.id) + p;
  root.append(el("h1", "Sign in to " + flow.app.name));
  if (flow.error && !answer.error) root.append(el("p", flow.error.message));
  if (flow.step === "choose_method") {
    if (flow.signed_in_as) { const b = el("button", "Continue as " + flow.signed_in_as.display_name); b.onclick = () => call(at("/continue")).then(show); root.append(b); }
    flow.methods.filter((m) => m.startsWith("idp_")).forEach((m) => { const b = el("button", "Continue with " + m); b.onclick = () => call(at("/providers/" + m)).then((a) => a.authorization_url ? location.assign(a.authorization_url) : show(a)); root.append(b); });
    root.append(form("Email address", ["email"], ([v]) => call(at("/code"), { channel: "email", destination: v }).then(show)));
  } else if (flow.step === "verify_code") {
    root.append(form("Code sent to " + flow.challenge.destination, ["code"], ([v]) => call(at("/code/verify"), { code: v }).then(show)));
  } else if (flow.step === "signup") {
    root.append(form("Create your account", ["display_name"], ([v]) => call(at("/signup"), { display_name: v }).then(show)));
  } else if (flow.step === "details") {
    const f = el("form"); f.append(el("h2", flow.details.title));
    const boxes = flow.details.fields.map((d) => { const l = el("label", d.label + ": " + (d.value || "(none)")); const c = el("input"); c.type = "checkbox"; c.checked = d.shared; c.disabled = d.mode === "required"; l.prepend(c); f.append(l); return [d.field, c]; });
    const b = el("button", flow.details.continue_label); f.append(b);
    f.onsubmit = (ev) => { ev.preventDefault(); call(at("/details/continue"), { shared: boxes.filter(([, c]) => c.checked).map(([n]) => n) }).then(show); };
    root.append(f);
  } else if (flow.step === "review") {
    const b = el("button", "Confirm"); b.onclick = () => call(at("/review")).then(show); root.append(b);
  }
  const cancel = el("button", "Cancel"); cancel.onclick = () => call(at("/cancel")).then(show); root.append(cancel);
};
const query = Object.fromEntries(new URLSearchParams(location.search));
let timezone; try { timezone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) {}
const begin = Object.keys(query).length === 1 && query.flow
  ? fetch("/v1/flows/" + encodeURIComponent(query.flow), { credentials: "same-origin" }).then((r) => r.json())
  : call("/v1/flows", { ...query, timezone });
begin.then(show, () => root.replaceChildren(el("p", "Could not start signing in.")));
`

export const hostedPage = (): HttpServerResponse.HttpServerResponse => {
  const nonce = randomBytes(16).toString("base64")
  return HttpServerResponse.text(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
      `<title>Sign in</title><style nonce="${nonce}">body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto}` +
      `form,button{display:block;margin:1rem 0}label{display:block}</style></head>` +
      `<body><main id="flow"><p>Loading…</p></main><script nonce="${nonce}">${SCRIPT}</script></body></html>`,
    { status: 200, contentType: "text/html; charset=utf-8", headers: { ...PAGE_HEADERS, "content-security-policy": csp(nonce) } }
  )
}
