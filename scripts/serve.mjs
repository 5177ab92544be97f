// `npm run serve`: the self-hosting command. The edge alone (no sandbox) serving the built web app,
// configured only by the environment: `LIBSQL_URL=libsql://...` (or `file:/path/stockbridge.db`),
// and in production JWT_SECRET and ENCRYPTION_KEYS (see .env.example). Builds the web app when its
// sources are newer than the last build. Logs are the edge's JSON lines, unprefixed.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { DENO, DENO_FLAGS, ensureDependencies, ensureWebBuild, ROOT } from "./lib.mjs";

ensureDependencies();
ensureWebBuild();

const edge = spawn(DENO, ["run", "--config", join(ROOT, "deno.json"), ...DENO_FLAGS, "edge/main.ts"], {
  cwd: ROOT,
  stdio: "inherit",
});
// The edge stops gracefully on these (requests in flight finish, the database closes).
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => edge.kill(signal));
edge.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
