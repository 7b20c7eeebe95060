// The organiser's restore (templates/backup/backup.html): no request to the companion carries
// more than 64 KiB (web.bounds), so the backup goes in parts of that size (backup.parts), each
// tried again up to three times (the Wi-Fi drops), then the form is sent with the upload's id
// in place of the file: the server answers it as before (a redirect, a message).
"use strict";

function setUpRestore(form) {
  form.hidden = false;                    // without this script the form stays hidden
  const file = form.querySelector('input[type="file"]');
  const error = form.querySelector("[data-restore-error]");
  const progress = form.querySelector("[data-restore-progress]");
  const button = form.querySelector('button[type="submit"]');
  const token = form.querySelector('input[name="csrf_token"]').value;
  const size = Number(form.dataset.part);

  async function send(upload, offset, part) {
    const address = `${form.dataset.restoreParts}?upload=${encodeURIComponent(upload)}&offset=${offset}`;
    let last = null;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        const answer = await fetch(address, {
          method: "POST", body: part, credentials: "same-origin",
          headers: { "Content-Type": "application/octet-stream", "X-CSRFToken": token },
        });
        const said = await answer.json().catch(() => ({}));
        if (answer.ok) return said.upload;
        last = said.error || answer.statusText;
        if (answer.status !== 409) break;   // refused (too large, not the organiser): no retry
      } catch (failure) {
        last = failure.message;
      }
    }
    throw new Error(last);
  }

  form.addEventListener("submit", async (event) => {
    const chosen = file.files[0];
    if (!chosen) return;                  // the server says what is missing
    event.preventDefault();
    button.disabled = true;
    error.hidden = true;
    progress.hidden = false;
    let upload = "";
    try {
      for (let offset = 0; offset < chosen.size; offset += size) {
        upload = await send(upload, offset, chosen.slice(offset, offset + size));
        progress.value = Math.min(1, (offset + size) / chosen.size);
      }
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
      button.disabled = false;
      return;
    }
    form.querySelector('input[name="upload"]').value = upload;
    file.disabled = true;                 // the parts hold it: not sent again
    form.submit();
  });
}

document.querySelectorAll("form[data-restore-parts]").forEach(setUpRestore);
