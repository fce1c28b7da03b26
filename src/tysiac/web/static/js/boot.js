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
  } catch (e) {
    // storage blocked: the defaults stay
  }
})();
