// The installable app: the service worker, and a "Zainstaluj" button shown only
// once the browser has offered installation (beforeinstallprompt).

export function initPwa() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // no service worker (private mode, old browser): the game works without it
    });
  }
  const button = document.getElementById("install");
  if (!button) return;
  let offer = null;
  const hide = () => {
    offer = null;
    if (document.activeElement === button) document.getElementById("settings-open")?.focus();
    button.hidden = true;
  };
  addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    offer = event;
    button.hidden = false;
  });
  button.addEventListener("click", async () => {
    if (!offer) return;
    offer.prompt();
    try {
      await offer.userChoice;
    } finally {
      hide();
    }
  });
  addEventListener("appinstalled", hide);
}
