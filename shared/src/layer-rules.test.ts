import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

// The layer rules live in biome.json and `npm test` runs `biome check .`, so an import that breaks
// a layer is a lint error there. These tests lint small files laid out as the repository is, in a
// scratch folder holding the repository's own biome.json, and read which imports Biome refuses.
// Biome gives a file the rule options of the last override matching it (they do not add up), so
// each override in biome.json repeats the sandbox rule; the sandbox test checks that it does.
const ROOT = resolve(import.meta.dirname, "../..");
const BIOME = join(ROOT, "node_modules", ".bin", "biome");
const run = promisify(execFile);
const scratch: string[] = [];

afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the layer rules in biome.json", () => {
  it("refuse hono in a service or a repository, and allow it in routes", async () => {
    const source =
      'import { Hono } from "hono";\nimport { HTTPException } from "hono/http-exception";\nexport const parts = [Hono, HTTPException];\n';
    const refused = await refusedImports({
      "edge/src/catalog/service.ts": source,
      "edge/src/history/review-service.ts": source,
      "edge/src/catalog/repo.ts": source,
      "edge/src/history/held-repo.ts": source,
      "edge/src/catalog/routes.ts": source,
    });
    expect(refused).toEqual([
      "edge/src/catalog/repo.ts:1 hono",
      "edge/src/catalog/repo.ts:2 hono/http-exception",
      "edge/src/catalog/service.ts:1 hono",
      "edge/src/catalog/service.ts:2 hono/http-exception",
      "edge/src/history/held-repo.ts:1 hono",
      "edge/src/history/held-repo.ts:2 hono/http-exception",
      "edge/src/history/review-service.ts:1 hono",
      "edge/src/history/review-service.ts:2 hono/http-exception",
    ]);
  });

  it("refuse @libsql/client in routes, and allow it in a repository", async () => {
    const source = 'import { createClient } from "@libsql/client";\nexport const open = createClient;\n';
    const refused = await refusedImports({
      "edge/src/mapping/routes.ts": source,
      "edge/src/mapping/repo.ts": source,
    });
    expect(refused).toEqual(["edge/src/mapping/routes.ts:1 @libsql/client"]);
  });

  it("refuse the sandbox anywhere in edge/src, web/src and cli/src, services and routes included", async () => {
    const source =
      'import { startSandbox } from "../../../sandbox/src/serve-node.ts";\nexport const start = startSandbox;\n';
    const entry =
      'import { startSandbox } from "@stockbridge/sandbox";\nexport const start = startSandbox;\n';
    const refused = await refusedImports({
      "edge/src/sync/engine.ts": source,
      "edge/src/sync/routes.ts": source,
      "edge/src/sync/service.ts": source,
      "edge/src/sync/plan.ts": entry,
      "web/src/lib/api.ts": source,
      "web/src/ui/button.tsx": source,
      "cli/src/commands/sync.ts": source,
    });
    expect(refused).toEqual([
      "cli/src/commands/sync.ts:1 ../../../sandbox/src/serve-node.ts",
      "edge/src/sync/engine.ts:1 ../../../sandbox/src/serve-node.ts",
      "edge/src/sync/plan.ts:1 @stockbridge/sandbox",
      "edge/src/sync/routes.ts:1 ../../../sandbox/src/serve-node.ts",
      "edge/src/sync/service.ts:1 ../../../sandbox/src/serve-node.ts",
      "web/src/lib/api.ts:1 ../../../sandbox/src/serve-node.ts",
      "web/src/ui/button.tsx:1 ../../../sandbox/src/serve-node.ts",
    ]);
  });

  it("let tests and harnesses beside the code reach the sandbox through its public entry only", async () => {
    const internals =
      'import { startSandbox } from "../../../sandbox/src/serve-node.ts";\nexport const start = startSandbox;\n';
    const entry =
      'import { startSandbox } from "@stockbridge/sandbox";\nexport const start = startSandbox;\n';
    const refused = await refusedImports({
      "edge/src/sync/engine.test.ts": internals,
      "edge/testing/sync-harness.ts": internals,
      "edge/src/sync/routes.test.ts": entry,
      "edge/testing/deno-harness.ts": entry,
      "web/src/db/outbox.test.ts": entry,
    });
    expect(refused).toEqual([
      "edge/src/sync/engine.test.ts:1 ../../../sandbox/src/serve-node.ts",
      "edge/testing/sync-harness.ts:1 ../../../sandbox/src/serve-node.ts",
    ]);
  });

  it("refuse every other package in shared/, and allow shared's own modules", async () => {
    const refused = await refusedImports({
      "shared/src/schemas/mapping.ts": [
        'import { createApp } from "../../../edge/src/app.ts";',
        'import { api } from "@stockbridge/web/src/lib/api.ts";',
        'import { serve } from "../../../sandbox/src/serve-node.ts";',
        'import { messages } from "../messages.ts";',
        'import { client } from "@stockbridge/shared";',
        "export const parts = [createApp, api, serve, messages, client];",
        "",
      ].join("\n"),
    });
    expect(refused).toEqual([
      "shared/src/schemas/mapping.ts:1 ../../../edge/src/app.ts",
      "shared/src/schemas/mapping.ts:2 @stockbridge/web/src/lib/api.ts",
      "shared/src/schemas/mapping.ts:3 ../../../sandbox/src/serve-node.ts",
    ]);
  });

  it("refuse a feature in web/src/ui, lib and db, and allow it in a feature and the composition root", async () => {
    const source =
      'import { useAuth } from "../../features/auth/use-auth.ts";\nexport const hook = useAuth;\n';
    const refused = await refusedImports({
      "web/src/ui/data-table/pagination.tsx": source,
      "web/src/lib/query/client.ts": source,
      "web/src/db/store/rows.ts": source,
      "web/src/features/shell/app-shell.tsx": source,
      "web/src/services.ts":
        'import { useAuth } from "./features/auth/use-auth.ts";\nexport const hook = useAuth;\n',
    });
    expect(refused).toEqual([
      "web/src/db/store/rows.ts:1 ../../features/auth/use-auth.ts",
      "web/src/lib/query/client.ts:1 ../../features/auth/use-auth.ts",
      "web/src/ui/data-table/pagination.tsx:1 ../../features/auth/use-auth.ts",
    ]);
  });
});

/** Lints `files` (path -> source) with the repository's biome.json; answers `path:line import` per refusal. */
async function refusedImports(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "layer-rules-"));
  scratch.push(dir);
  const config = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8"));
  // The scratch folder is no git checkout and has no node_modules beside it.
  delete config.vcs;
  delete config.$schema;
  writeFileSync(join(dir, "biome.json"), JSON.stringify(config));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  const output = await run(BIOME, ["lint", "--reporter=json", "--max-diagnostics=none", "."], {
    cwd: dir,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  const report: unknown = JSON.parse(output.stdout);
  return diagnosticsOf(report)
    .filter((diagnostic) => diagnostic.category === "lint/style/noRestrictedImports")
    .map((diagnostic) => {
      const lines = files[diagnostic.path]?.split("\n") ?? [];
      const line = lines[diagnostic.line - 1] ?? "";
      return `${diagnostic.path}:${diagnostic.line} ${/from "([^"]+)"/.exec(line)?.[1]}`;
    })
    .sort();
}

type Diagnostic = { category: string; path: string; line: number };

function diagnosticsOf(report: unknown): Diagnostic[] {
  const list = field(report, "diagnostics");
  if (!Array.isArray(list)) throw new Error(`Biome gave no JSON report: ${JSON.stringify(report)}`);
  return list.map((entry: unknown) => ({
    category: String(field(entry, "category")),
    path: String(field(field(entry, "location"), "path")),
    line: Number(field(field(field(entry, "location"), "start"), "line")),
  }));
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && key in value
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
