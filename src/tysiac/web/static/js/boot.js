// Runs before the first paint (a classic script, not a module), so a chosen theme,
// font or text size never flashes the default. settings.js owns the same keys.
(function () {
  var root = document.documentElement;
  try {
    var theme = localStorage.getItem("theme");
    if (theme === "light" || theme === "dark") root.setAttribute("data-theme", theme);
    if (localStorage.getItem("font") === "atkinson") root.setAttribute("data-font", "atkinson");
    var size = localStorage.getItem("textSize");
    if (size === "large" || size === "larger") root.setAttribute("data-text-size", size);
    // A document's page (/zasady, /regulamin) comes from the server in the browser's
    // language; a reader who chose another one in the settings (lang.js) asks for it by
    // name, before anything is drawn, and one who chose none drops an old ?lang=.
    var name = root.getAttribute("data-document");
    if (name) {
      var url = new URL(location.href);
      var chosen = localStorage.getItem("lang");
      // (Asked once: a language the site lacks comes back Polish, and stays so.)
      if (chosen && chosen !== root.lang && url.searchParams.get("lang") !== chosen) {
        url.searchParams.set("lang", chosen);
        location.replace(url.href);
      } else if (!chosen && url.searchParams.has("lang")) {
        url.searchParams.delete("lang");
        location.replace(url.href);
      }
    }
  } catch (e) {
    // storage blocked: the defaults stay
  }
})();
