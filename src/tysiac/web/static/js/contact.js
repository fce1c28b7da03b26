// The contact page: the message, the nick and the e-mail are encrypted together in this
// browser with the operator's OpenPGP key (OpenPGP.js, loaded only on this page), and
// only the armored ciphertext is sent to /api/contact, which mails it on unchanged.
import { $ } from "./dom.js";
import { ApiError, request } from "./api.js";
import { initPwa } from "./pwa.js";
import "./settings.js"; // the "Aa" button, wired as soon as it loads
import { site } from "./site.js";
import { counted, t } from "./words.js";

initPwa();

const OPENPGP = "/static/vendor/openpgp/openpgp.min.mjs";

const KEPT = t("contact.kept");
const ENCRYPTION_FAILED = t("contact.encryption_failed");

let config = null;
let operatorKey = null; // a promise of the parsed key (OpenPGP.js and the key, loaded once)

const form = $("contact-form");
const message = $("message");
const nick = $("contact-nick");
const email = $("contact-email");
const send = $("send");

function say(text) {
  $("error").textContent = "";
  $("status").textContent = text;
}

function fail(text) {
  $("status").textContent = "";
  $("error").textContent = text;
}

function fieldError(input, text) {
  const note = $(`${input.id === "message" ? "message" : "email"}-error`);
  note.textContent = text;
  input.setAttribute("aria-invalid", text ? "true" : "false");
}

/** The fingerprint as the server shows it: upper-case hex in groups of four. */
const grouped = (hex) =>
  hex
    .toUpperCase()
    .match(/.{1,4}/g)
    .join(" ");

function loadKey() {
  operatorKey ??= (async () => {
    const openpgp = await import(OPENPGP);
    const key = await openpgp.readKey({ armoredKey: config.key });
    if (grouped(key.getFingerprint()) !== config.fingerprint)
      throw new Error("fingerprint mismatch");
    return { openpgp, key };
  })();
  return operatorKey;
}

/**
 * One plaintext for all three fields: a MIME entity (RFC 3156 wants one inside the
 * encrypted part), so a mail program shows it as text and gpg prints it as it is.
 */
function plaintext(text, nickText, emailText) {
  const lines = [
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    t("contact.mail.nick", { nick: nickText || t("contact.mail.none") }),
    t("contact.mail.email", { email: emailText || t("contact.mail.none") }),
    "",
    text,
  ];
  return `${lines.join("\n")}\n`.replace(/\r?\n/g, "\r\n");
}

async function encrypt(text, nickText, emailText) {
  const { openpgp, key } = await loadKey();
  const data = new TextEncoder().encode(plaintext(text, nickText, emailText));
  return openpgp.encrypt({
    message: await openpgp.createMessage({ binary: data, format: "binary" }),
    encryptionKeys: key,
    format: "armored",
  });
}

function valid() {
  let ok = true;
  fieldError(message, "");
  fieldError(email, "");
  if (!message.value.trim()) {
    fieldError(message, t("contact.message.empty"));
    message.focus();
    ok = false;
  }
  if (email.value.trim() && !email.checkValidity()) {
    fieldError(email, t("contact.email.invalid"));
    if (ok) email.focus();
    ok = false;
  }
  return ok;
}

async function submit(event) {
  event.preventDefault();
  if (send.disabled || !valid()) {
    if (!send.disabled) fail(t("contact.invalid"));
    return;
  }
  send.disabled = true;
  send.setAttribute("aria-busy", "true");
  say(t("contact.encrypting"));
  try {
    let armored;
    try {
      armored = await encrypt(message.value, nick.value.trim(), email.value.trim());
    } catch {
      operatorKey = null; // a fresh try loads the library and the key again
      fail(`${ENCRYPTION_FAILED} ${KEPT}`);
      return;
    }
    say(t("contact.sending"));
    const sent = await request("POST", "/api/contact", { message: armored });
    form.reset();
    if (sent) say(`${t("contact.sent")} ${t("contact.sent.reply")}`); // worded here, by the page
  } catch (error) {
    const text = error instanceof ApiError ? error.message : t("contact.failed");
    if (error instanceof ApiError && error.code === "contact_off") showOff();
    // Nothing is lost: the form keeps the text for another try or for copying.
    fail(`${text} ${KEPT}`);
  } finally {
    send.disabled = false;
    send.removeAttribute("aria-busy");
  }
}

function showOff() {
  form.hidden = true;
  $("contact-off").hidden = false;
}

/** Without the operator's address (or /api/site), the links keep pointing at the terms
 * page, which names the operator. */
function fillEmail() {
  const email = site?.operator?.email;
  if (!email) return;
  for (const link of document.querySelectorAll("[data-email]")) {
    link.textContent = email;
    link.href = `mailto:${email}`;
  }
}

async function start() {
  fillEmail();
  try {
    config = await request("GET", "/api/contact");
  } catch (error) {
    $("loading").hidden = true;
    fail(t("contact.load_failed", { reason: error.message }));
    return;
  }
  $("loading").hidden = true;
  $("per-day").textContent = counted("count.contact_per_day", config.per_day);
  if (config.fingerprint) {
    $("fingerprint").textContent = config.fingerprint;
    $("key-link").href = config.key_url;
    $("wkd-note").hidden = !config.wkd;
    $("key-section").hidden = false;
  }
  if (!config.configured) {
    showOff();
    return;
  }
  message.maxLength = config.max_text;
  form.hidden = false;
  form.addEventListener("submit", submit);
  // Load the library and check the key now, so a problem shows before anything is typed.
  loadKey().catch(() => {
    operatorKey = null;
    fail(ENCRYPTION_FAILED);
  });
}

start();
