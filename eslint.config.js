// ESLint for the project's own JavaScript (make lint): the recommended rules, with the
// globals each kind of file runs with. Formatting is Prettier's (.prettierrc.json).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["src/tysiac/web/static/vendor/", "node_modules/", ".venv/"] },
  js.configs.recommended,
  {
    // `const { a, ...rest } = x` leaves out `a` on purpose.
    rules: { "no-unused-vars": ["error", { ignoreRestSiblings: true }] },
  },
  {
    // The pages' modules, loaded by the browser as they are (no build step).
    files: ["src/tysiac/web/static/js/**/*.js"],
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  {
    // Run before the first paint as a classic script, in any browser that parses it:
    // `var`, and a `catch (e)` binding that is never used.
    files: ["src/tysiac/web/static/js/boot.js"],
    languageOptions: { sourceType: "script" },
    rules: { "no-unused-vars": ["error", { caughtErrors: "none" }] },
  },
  {
    // The service worker is a classic script.
    files: ["src/tysiac/web/static/sw.js"],
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
  },
  {
    // The unit tests of the pure modules (node --test), and this file.
    files: ["tests/js/**/*.mjs", "eslint.config.js"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
