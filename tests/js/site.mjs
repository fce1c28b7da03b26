// What the server tells every page (/api/site), for the tests of the client modules:
// asked of the project's own server code (its site_facts), never copied here, and
// answered to the page's fetch. Import it before any module of the page.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const python = process.env.PYTHON ?? `${root}.venv/bin/python`;
const script = [
  "import json",
  "from tysiac.server.config import Settings",
  "from tysiac.server.http.api import site_facts",
  "print(json.dumps(site_facts(Settings())))",
].join("\n");

export const site = JSON.parse(execFileSync(python, ["-c", script], { encoding: "utf-8" }));

globalThis.fetch = async (path) => {
  if (!/^\/api\/site(\?lang=\w+)?$/.test(path)) throw new TypeError(`no server here for ${path}`);
  return new Response(JSON.stringify(site), { headers: { "Content-Type": "application/json" } });
};
