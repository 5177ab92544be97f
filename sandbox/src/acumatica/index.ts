import type { SandboxClock } from "../clock.ts";
import type { QuantityUpdate } from "../control.ts";
import type { DemoCatalog } from "../seed/catalog.ts";
import { ControlInputError, type Simulator } from "../simulator.ts";
import { createLimiter } from "./limiter.ts";
import { createAcumaticaRoutes } from "./routes.ts";
import { createSessions } from "./sessions.ts";
import { type AcumaticaSettings, DEFAULT_SETTINGS, mergeSettings } from "./settings.ts";
import { createStore, type ErpStore, emptyStore, findWarehouse } from "./store.ts";

export interface AcumaticaSimulator extends Simulator {
  /** Changes one item's quantities in one warehouse (what a stock movement in the ERP would do). */
  setQuantities(update: QuantityUpdate): void;
}

/**
 * Acumatica's contract-based REST API (`{sandbox}/acumatica/entity/...`) over the demo catalog:
 * cookie sessions with licence seats, the licence request queue, StockItem / NonStockItem /
 * Warehouse with OData-style queries per endpoint version, and the quantity inquiries.
 * Protocol notes: shared/integrations/acumatica.md.
 */
export function createAcumaticaSimulator(options: { clock: SandboxClock }): AcumaticaSimulator {
  const { clock } = options;
  let settings: AcumaticaSettings = { ...DEFAULT_SETTINGS };
  let store: ErpStore = emptyStore();
  const sessions = createSessions(clock, () => settings);
  const limiter = createLimiter(clock, () => settings);
  const counters = { calls: 0, faults: { errors: 0, timeouts: 0 } };
  const routes = createAcumaticaRoutes({
    clock,
    store: () => store,
    settings: () => settings,
    sessions,
    limiter,
    counters,
  });

  return {
    routes,
    reset(catalog: DemoCatalog) {
      store = createStore(catalog);
      settings = { ...DEFAULT_SETTINGS };
      sessions.clear();
      limiter.clear();
      limiter.limitsChanged();
      Object.assign(counters, { calls: 0, faults: { errors: 0, timeouts: 0 } });
    },
    configure(input: Record<string, unknown>) {
      settings = mergeSettings(settings, input);
      limiter.limitsChanged();
    },
    state() {
      const queue = limiter.counters;
      const login = sessions.counters;
      return {
        calls: counters.calls,
        loginsOpen: sessions.open(),
        // The high-water mark of loginsOpen: how many seats were ever in use at once.
        loginsOpenPeak: login.openPeak,
        logins: login.logins,
        loginFailures: login.loginFailures,
        logouts: login.logouts,
        sessionsExpired: login.expired,
        // Every 429: seats used up at login plus requests the licence queue declined.
        declined: login.loginLimitHits + queue.queueDeclines,
        loginLimitHits: login.loginLimitHits,
        queueDeclines: queue.queueDeclines,
        delayed: queue.delayed,
        queued: queue.queued,
        queuedPeak: queue.queuedPeak,
        running: queue.active,
        runningPeak: queue.activePeak,
        injectedErrors: counters.faults.errors,
        injectedTimeouts: counters.faults.timeouts,
        stockItems: store.stock.rows.length,
        nonStockItems: store.nonStock.rows.length,
        settings: { ...settings },
      };
    },
    setQuantities(update: QuantityUpdate) {
      const item = store.stock.byKey.get(update.inventoryId);
      if (!item) {
        const message = store.nonStock.byKey.has(update.inventoryId)
          ? `${update.inventoryId} is a non-stock item: it has no warehouse quantities.`
          : `Unknown stock item "${update.inventoryId}".`;
        throw new ControlInputError(message);
      }
      const warehouse = findWarehouse(store, update.warehouseId);
      if (!warehouse) {
        const known = store.warehouses.map((candidate) => candidate.warehouseId).join(", ");
        throw new ControlInputError(`Unknown warehouse "${update.warehouseId}": use ${known}.`);
      }
      const now = clock.now().getTime();
      const quantities = {
        onHand: update.onHand,
        available: update.available,
        availableForShipment: update.availableForShipment,
        lastModified: now,
      };
      // Quantities live apart from the item record: its LastModified does not move (acumatica.md §3.4).
      const row = item.warehouses.find((candidate) => candidate.warehouseId === warehouse.warehouseId);
      if (row) Object.assign(row, quantities);
      else item.warehouses.push({ warehouseId: warehouse.warehouseId, ...quantities });
    },
  };
}
