import { type Context, Hono } from "hono";
import type { SandboxClock } from "./clock.ts";
import type { Mailbox } from "./mail/mailbox.ts";
import type { ShopifySimulator } from "./shopify/index.ts";
import { ControlInputError, type Simulator } from "./simulator.ts";

export interface QuantityUpdate {
  inventoryId: string;
  warehouseId: string;
  onHand: number;
  available: number;
  availableForShipment: number;
}

interface ControlDeps {
  systems: {
    shopify: ShopifySimulator;
    acumatica: Simulator & { setQuantities(update: QuantityUpdate): void };
    stripe: Simulator & { onClockChanged(): Promise<void> };
  };
  clock: SandboxClock;
  reset(seed?: number, size?: number): unknown;
  mail: Mailbox;
}

/** Reads the caller's address; set by the runtime adapter (Deno or Node) that serves the sandbox. */
export type RemoteAddressOf = (c: Context) => string | undefined;

/**
 * `/__control/*`: reset, faults, ERP quantity changes, a variant added in the Shopify admin, the clock,
 * counters and caught mail. Loopback only.
 */
export function createControlRoutes(deps: ControlDeps, remoteAddressOf?: RemoteAddressOf) {
  const app = new Hono();

  app.use("*", async (c, next) => {
    const address = remoteAddressOf?.(c);
    if (!address || !isLoopback(address)) {
      return c.json(
        { error: "The sandbox control API only answers calls from this machine (loopback)." },
        403,
      );
    }
    await next();
  });

  app.onError((error, c) => {
    if (error instanceof ControlInputError) return c.json({ error: error.message }, 400);
    throw error;
  });

  app.post("/reset", async (c) => {
    const body = await readJson(c);
    const seed = optionalInteger(body.seed, { name: "seed", min: 0, max: 2 ** 31 });
    const size = optionalInteger(body.size, { name: "size", min: 1, max: 100_000 });
    deps.reset(seed, size);
    return c.json({ ok: true, seed: seed ?? null, size: size ?? null });
  });

  app.put("/faults", async (c) => {
    const body = await readJson(c);
    for (const [system, settings] of Object.entries(body)) {
      const simulator = deps.systems[system as keyof ControlDeps["systems"]];
      if (!simulator)
        throw new ControlInputError(`Unknown system "${system}": use shopify, acumatica or stripe.`);
      if (typeof settings !== "object" || settings === null) {
        throw new ControlInputError(`${system} must be an object of settings.`);
      }
      simulator.configure(settings as Record<string, unknown>);
    }
    return c.json({ ok: true });
  });

  app.post("/acumatica/quantities", async (c) => {
    const body = await readJson(c);
    if (typeof body.inventoryId !== "string" || typeof body.warehouseId !== "string") {
      throw new ControlInputError("inventoryId and warehouseId are required strings.");
    }
    deps.systems.acumatica.setQuantities({
      inventoryId: body.inventoryId,
      warehouseId: body.warehouseId,
      onHand: requiredInteger(body.onHand, "onHand"),
      available: requiredInteger(body.available, "available"),
      availableForShipment: requiredInteger(body.availableForShipment, "availableForShipment"),
    });
    return c.json({ ok: true });
  });

  app.post("/shopify/variants", async (c) => {
    const body = await readJson(c);
    const title = body.title;
    if (title !== undefined && (typeof title !== "string" || title.trim() === "")) {
      throw new ControlInputError("title must be a non-empty string when given.");
    }
    if (body.sku !== undefined && body.sku !== null && typeof body.sku !== "string") {
      throw new ControlInputError("sku must be a string or null.");
    }
    const priceCents = requiredInteger(body.priceCents, "priceCents");
    if (priceCents < 0) throw new ControlInputError("priceCents must be 0 or more.");
    const added = deps.systems.shopify.addVariant({
      productId: requiredInteger(body.productId, "productId"),
      sku: typeof body.sku === "string" && body.sku.trim() !== "" ? body.sku.trim() : null,
      priceCents,
      title: title?.trim(),
    });
    return c.json({ id: `gid://shopify/ProductVariant/${added.variantId}`, ...added });
  });

  app.post("/clock", async (c) => {
    const body = await readJson(c);
    if (typeof body.set === "string") {
      const date = new Date(body.set);
      if (Number.isNaN(date.getTime())) throw new ControlInputError("set must be an ISO date.");
      deps.clock.set(date);
    } else {
      const seconds = requiredInteger(body.advanceSeconds, "advanceSeconds");
      deps.clock.advance(seconds * 1000);
    }
    await deps.systems.stripe.onClockChanged();
    return c.json({ now: deps.clock.now().toISOString() });
  });

  app.get("/state", (c) =>
    c.json({
      now: deps.clock.now().toISOString(),
      shopify: deps.systems.shopify.state(),
      acumatica: deps.systems.acumatica.state(),
      stripe: deps.systems.stripe.state(),
      mail: deps.mail.state(),
    }),
  );

  // Every message the SMTP catcher accepted, newest first; DELETE empties the mailbox.
  app.get("/mail", (c) => c.json(deps.mail.list()));
  app.delete("/mail", (c) => {
    deps.mail.clear();
    return c.json({ ok: true });
  });

  return app;
}

function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

async function readJson(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // fall through to the error below
  }
  throw new ControlInputError("The body must be a JSON object.");
}

function optionalInteger(
  value: unknown,
  { name, min, max }: { name: string; min: number; max: number },
): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new ControlInputError(`${name} must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

function requiredInteger(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new ControlInputError(`${name} must be a whole number.`);
  }
  return value;
}
