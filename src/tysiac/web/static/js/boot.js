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
    // Any other page's HTML is Polish until site.js puts in the words of its language: a
    // reader of another language sees the page only then (no Polish flash), or after 3 s
    // whatever came. The language as lang.js picks it, by its primary subtag.
    var wanted =
      localStorage.getItem("lang") ||
      String((navigator.languages && navigator.languages[0]) || navigator.language || "pl");
    if (!name && wanted.toLowerCase().split(/[-_]/)[0] !== "pl") {
      root.classList.add("words-pending");
      setTimeout(function () {
        root.classList.remove("words-pending");
      }, 3000);
    }
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
