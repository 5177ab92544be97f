import type { ChildProcess } from "node:child_process";

export const ROOT: string;
export const DENO: string;
export const DENO_FLAGS: string[];
export function ensureDependencies(): void;
export function ensureWebBuild(): void;
export function ensureCliBuild(): void;
export function run(command: string, args: string[], options?: object): void;
export function startDeno(
  name: string,
  entry: string,
  env: Record<string, string>,
  readyUrl: string,
): Promise<ChildProcess>;
export function freePort(): Promise<number>;
export function developmentWebhookSecret(dataDir: string): string;
