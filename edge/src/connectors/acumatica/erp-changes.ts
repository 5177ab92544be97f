import { streamArrayItems } from "../json-array-stream.ts";
import { AcumaticaError } from "./failures.ts";
import type { AcumaticaApi } from "./session.ts";
import { text, type Wrapped } from "./warehouse-totals.ts";

/** Items per `$top` page of a change list (fewer when the limit is lower: one past it is enough). */
const PAGE_SIZE = 1_000;
/** InventoryQuantityAvailable, the only built-in source of quantity changes, came with 22.200.001. */
const FIRST_QUANTITY_DELTA_MAJOR = 22;

/**
 * The InventoryIDs (trimmed, upper-cased) of every stock and non-stock item whose record changed
 * after `since` and of every stock item whose quantities did: an item's LastModified does not move
 * when its stock does, so quantities are read apart, from InventoryQuantityAvailable (acumatica.md
 * §3.4). The three reads run at once within the session. Null when the endpoint version has no
 * quantity delta source (before 22.200.001), or when more than `limit` items changed: the caller
 * reads in full then, so no read goes on past the first page that shows it.
 */
export async function readErpChanges(
  api: AcumaticaApi,
  apiVersion: string,
  options: { since: Date; limit: number },
): Promise<Set<string> | null> {
  const major = Number(apiVersion.split(".")[0]);
  if (!(major >= FIRST_QUANTITY_DELTA_MAJOR)) return null;
  const since = options.since.toISOString();
  const changed = new Tally(options.limit);
  // OData v3 literal; the session URL-encodes it (':' and a '+' offset must not arrive raw).
  const after = `gt datetimeoffset'${since}'`;
  const reads = await Promise.allSettled([
    // LastModified is on StockItem in every version (LastModifiedDateTime only from 24).
    changedItems(api, { entity: "StockItem", filter: `LastModified ${after}`, into: changed }),
    changedItems(api, { entity: "NonStockItem", filter: `LastModifiedDateTime ${after}`, into: changed }),
    changedQuantities(api, { since, into: changed }),
  ]);
  // Every read is settled first: the session is logged out after this, with none of them in flight.
  const failed = reads.find((read) => read.status === "rejected");
  if (failed) throw failed.reason;
  return changed.over ? null : changed.ids;
}

/** The distinct InventoryIDs the reads found, and whether there are more than the limit. */
class Tally {
  readonly ids = new Set<string>();
  constructor(readonly limit: number) {}

  get over(): boolean {
    return this.ids.size > this.limit;
  }

  add(inventoryId: string): void {
    const key = inventoryId.trim().toUpperCase();
    if (key) this.ids.add(key);
  }
}

/** `$filter`ed `$top`/`$skip` pages of InventoryID until a short page, or until the tally is over. */
async function changedItems(
  api: AcumaticaApi,
  read: { entity: "StockItem" | "NonStockItem"; filter: string; into: Tally },
): Promise<void> {
  const { entity, filter, into } = read;
  const size = Math.max(1, Math.min(PAGE_SIZE, into.limit + 1));
  for (let page = 0; !into.over; page += 1) {
    const answer = await api.get<unknown>(entity, {
      $select: "InventoryID",
      $filter: filter,
      $top: size,
      $skip: page * size,
    });
    if (!Array.isArray(answer))
      throw new AcumaticaError(`${entity} list answered something that is not a list`, "protocol");
    for (const record of answer as Wrapped[]) into.add(text(record.InventoryID));
    if (answer.length < size) return;
  }
}

/**
 * InventoryQuantityAvailable's rows (every stock item whose warehouse quantities changed since
 * `since`, summed over warehouses), streamed: the answer is unpaged, so a long absence could
 * return most of a catalog, and reading stops once the tally is over.
 */
async function changedQuantities(api: AcumaticaApi, read: { since: string; into: Tally }): Promise<void> {
  const { since, into } = read;
  const found = await api.stream(
    {
      method: "PUT",
      path: "InventoryQuantityAvailable",
      query: { $expand: "Results" },
      // InventoryID left out: every item.
      body: { LastModifiedDateTime: { value: since } },
    },
    async (body) => {
      // Called again from scratch if the answer is cut off and retried: rows are kept apart until then.
      const rows = new Set<string>();
      for await (const row of streamArrayItems(body, "Results")) {
        const inventoryId = text((row as Wrapped).InventoryID).toUpperCase();
        if (inventoryId) rows.add(inventoryId);
        // Enough to know: more than the limit here alone, or the other reads found more already.
        if (rows.size > into.limit || into.over) break;
      }
      return rows;
    },
  );
  for (const inventoryId of found) into.add(inventoryId);
}
