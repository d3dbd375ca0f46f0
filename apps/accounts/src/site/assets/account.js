// The signed-in person's pages: each change is a call to the account API (spec 1, Account management)
// with the session cookie; the browser adds our Origin, which the API checks on every change.
"use strict";
(() => {
  const problemOf = async (response) => {
    try {
      const body = await response.json();
      if (body && body.error) return body.error.message + (body.error.hint ? " " + body.error.hint : "");
    } catch (_) { /* not JSON */ }
    return "That did not work (" + response.status + "). Try again.";
  };

  const bodyOf = (form) => {
    const body = {};
    for (const [name, value] of new FormData(form)) if (typeof value === "string") body[name] = value.trim();
    return body;
  };

  const show = (form, text, kind) => {
    const note = form.querySelector("[data-note]");
    if (!note) return;
    note.textContent = text;
    note.className = kind;
  };

  const send = async (form, submitter) => {
    const method = form.dataset.method || "POST";
    const file = form.querySelector("input[type=file]");
    const init = { method, credentials: "same-origin", headers: {} };
    if (file) {
      const chosen = file.files && file.files[0];
      if (!chosen) { show(form, "Choose a picture first.", "error"); return; }
      init.headers["content-type"] = chosen.type || "application/octet-stream";
      init.body = chosen;
    } else if (form.dataset.body !== "none") {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(bodyOf(form));
    }
    if (submitter) submitter.disabled = true;
    show(form, "", "hint");
    try {
      const response = await fetch(form.dataset.api, init);
      if (!response.ok) { show(form, await problemOf(response), "error"); return; }
      const next = form.dataset.then || "reload";
      if (next.startsWith("reveal:")) {
        // A code was sent: the form that takes it appears, holding the challenge it answers.
        const answer = await response.json();
        const target = document.getElementById(next.slice(7));
        if (target) {
          for (const [name, value] of Object.entries(answer)) {
            const input = target.querySelector("input[type=hidden][name=\"" + name + "\"]");
            if (input) input.value = String(value);
          }
          const where = target.querySelector("[data-destination]");
          if (where && answer.destination) where.textContent = answer.destination;
          target.hidden = false;
          const first = target.querySelector("input:not([type=hidden])");
          if (first) first.focus();
        }
        show(form, "", "hint");
        return;
      }
      window.location.assign(next === "reload" ? window.location.pathname + window.location.search : next);
    } catch (_) {
      show(form, "The connection failed. Try again.", "error");
    } finally {
      if (submitter) submitter.disabled = false;
    }
  };

  for (const form of document.querySelectorAll("form[data-api]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
      void send(form, event.submitter);
    });
  }
  // The forms work with script only; without it they stay disabled and the page says so.
  for (const fieldset of document.querySelectorAll("fieldset[data-needs-script]")) fieldset.disabled = false;
  for (const note of document.querySelectorAll("[data-no-script]")) note.hidden = true;
})();
