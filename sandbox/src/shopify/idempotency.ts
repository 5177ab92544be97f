import { GraphQLError, type GraphQLResolveInfo, getDirectiveValues } from "graphql";
import type { RequestContext } from "./shop-state.ts";

/**
 * `@idempotent(key:)` on inventory mutations (2026-01 optional, 2026-04 required): a retry with the
 * same key and the same input answers the first result without applying it twice; the same key with
 * other input is IDEMPOTENCY_KEY_PARAMETER_MISMATCH.
 */
export function idempotencyKey(
  ctx: RequestContext,
  info: GraphQLResolveInfo,
  mutation: string,
): string | null {
  const directive = ctx.schema.getDirective("idempotent");
  const node = info.fieldNodes[0];
  const key = directive && node ? getDirectiveValues(directive, node, info.variableValues)?.key : undefined;
  if (typeof key === "string") return key;
  if (ctx.version.compareAndSwapOnly && !ctx.bulk) {
    throw new GraphQLError(
      `The @idempotent directive with a key is required for ${mutation} as of API version 2026-04.`,
      {
        extensions: { code: "IDEMPOTENCY_KEY_REQUIRED" },
      },
    );
  }
  return null;
}

export type Recalled<P> = { kind: "replay"; payload: P } | { kind: "mismatch" } | null;

/**
 * Entries are keyed by mutation name and only `rememberIdempotent` for that mutation writes them,
 * so a replayed payload has the type that mutation stored.
 */
export function recallIdempotent<P>(
  ctx: RequestContext,
  { key, mutation, input }: { key: string | null; mutation: string; input: unknown },
): Recalled<P> {
  if (key === null) return null;
  const entry = ctx.shop.idempotency.get(`${mutation}:${key}`);
  if (!entry) return null;
  if (entry.fingerprint !== JSON.stringify(input)) return { kind: "mismatch" };
  return { kind: "replay", payload: entry.payload as P };
}

export function rememberIdempotent(
  ctx: RequestContext,
  {
    key,
    mutation,
    input,
    payload,
  }: { key: string | null; mutation: string; input: unknown; payload: unknown },
) {
  if (key === null) return;
  ctx.shop.idempotency.set(`${mutation}:${key}`, { fingerprint: JSON.stringify(input), payload });
}
