// The application login page (GET /login): sign in with a code, consent, choose organizations.
// Tokens are made only by the POST of Continue; the browser then goes to the callback with them in the fragment.
"use strict";
(() => {
  const problemOf = async (response) => {
    try {
      const body = await response.json();
      if (body && body.error) return body.error.message + (body.error.hint ? " " + body.error.hint : "");
    } catch (_) { /* not JSON */ }
    return "That did not work (" + response.status + "). Try again.";
  };

  const show = (form, text, kind) => {
    const note = form.querySelector("[data-note]");
    if (note) { note.textContent = text; note.className = "small " + kind; }
  };

  const post = (path, body) => fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  });

  /** Runs a form's submission once at a time, showing its refusal next to it. */
  const onSubmit = (form, run) => form && form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    if (button) button.disabled = true;
    show(form, "", "muted");
    try { await run(); } catch (_) { show(form, "The connection failed. Try again.", "error"); } finally { if (button) button.disabled = false; }
  });

  // Sign-in: an email address, then the code sent to it; the answer sets the iam_session cookie.
  const emailForm = document.getElementById("email-form");
  const codeForm = document.getElementById("code-form");
  let challenge = "";
  onSubmit(emailForm, async () => {
    const email = emailForm.elements.email.value.trim();
    if (email === "") { show(emailForm, "Enter your email address.", "error"); return; }
    const response = await post("/api/v1/login/challenges", { email });
    if (!response.ok) { show(emailForm, await problemOf(response), "error"); return; }
    challenge = (await response.json()).session_id;
    codeForm.querySelector("[data-destination]").textContent = email;
    codeForm.hidden = false;
    codeForm.elements.code.focus();
  });
  onSubmit(codeForm, async () => {
    const code = codeForm.elements.code.value.replace(/\D/g, "");
    const response = await post("/api/v1/login/challenges/" + encodeURIComponent(challenge) + "/verify", { code });
    if (!response.ok) { show(codeForm, await problemOf(response), "error"); return; }
    window.location.reload();
  });

  // Consent precedes the organization picker.
  const allow = document.getElementById("allow");
  if (allow) allow.addEventListener("click", () => {
    allow.hidden = true;
    document.querySelector("[data-consent-given]").hidden = false;
    const picker = document.getElementById("organizations");
    if (picker) {
      picker.hidden = false;
      const first = picker.querySelector("input[type=checkbox]");
      if (first) first.focus();
    }
  });

  // One organization choice for every application; at least one organization.
  const approveForm = document.getElementById("approve-form");
  onSubmit(approveForm, async () => {
    const orgIds = [...approveForm.querySelectorAll("input[name=org_id]:checked")].map((input) => input.value);
    if (orgIds.length === 0) { show(approveForm, "Choose at least one organization.", "error"); return; }
    const applications = [...document.querySelectorAll("[data-app-id]")].map((app) => ({
      app_id: app.dataset.appId,
      org_ids: orgIds,
      approved_scopes: app.dataset.scopes.split(" ").filter((scope) => scope !== ""),
      scope_version: Number(app.dataset.scopeVersion)
    }));
    const response = await post("/login/tokens", { return_to: approveForm.dataset.returnTo, applications });
    if (!response.ok) { show(approveForm, await problemOf(response), "error"); return; }
    window.location.assign((await response.json()).redirect_to);
  });

  for (const element of document.querySelectorAll("[data-needs-script]")) element.disabled = false;
  for (const note of document.querySelectorAll("[data-no-script]")) note.hidden = true;
})();
