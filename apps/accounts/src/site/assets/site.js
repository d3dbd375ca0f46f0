// Progressive enhancement of the account site's pages; every page works without it.
"use strict";
(() => {
  // The browser's time zone, the default of a new account.
  for (const input of document.querySelectorAll("input[data-timezone]")) {
    try { input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (_) { /* keep the server's */ }
  }

  // Resend: offered once the service suggests it, with a countdown until then.
  for (const button of document.querySelectorAll("button[data-resend-at]")) {
    const at = Date.parse(button.dataset.resendAt);
    const note = document.getElementById(button.getAttribute("aria-describedby") || "");
    const tick = () => {
      const left = Math.ceil((at - Date.now()) / 1000);
      if (left > 0) {
        button.disabled = true;
        if (note) note.textContent = "You can ask for a new code in " + left + " s.";
        setTimeout(tick, 1000);
      } else {
        button.disabled = false;
        if (note) note.textContent = "Didn't get it? Ask for a new code.";
      }
    };
    tick();
  }

  // The id of a new account: availability while typing, with suggestions when taken.
  const idInput = document.querySelector("input[data-availability]");
  const status = idInput && document.getElementById(idInput.dataset.availability);
  if (idInput && status) {
    let timer = 0;
    let asked = "";
    const check = async () => {
      const wanted = idInput.value.trim();
      if (wanted === "" || wanted === asked) { if (wanted === "") status.textContent = ""; return; }
      asked = wanted;
      try {
        const response = await fetch("/v1/ids/available?id=" + encodeURIComponent(wanted), { credentials: "same-origin" });
        if (asked !== wanted) return;
        const answer = await response.json();
        status.className = answer.available ? "available" : "error";
        if (answer.available) status.textContent = answer.id + " is available.";
        else if (answer.error) status.textContent = answer.error.message;
        else {
          const ideas = (answer.suggestions || []).slice(0, 3).join(", ");
          status.textContent = answer.id + " is taken." + (ideas ? " Try " + ideas + "." : "");
        }
      } catch (_) { status.textContent = ""; }
    };
    idInput.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(check, 300); });
    idInput.addEventListener("blur", check);
  }

  // A code field: digits only, as people paste them with spaces.
  for (const input of document.querySelectorAll("input[data-code]")) {
    input.addEventListener("input", () => { input.value = input.value.replace(/\D/g, "").slice(0, 6); });
  }
})();
