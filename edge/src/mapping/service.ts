import type {
  Mapping,
  MappingHistory,
  MappingInput,
  MappingSelector,
  Unmapped,
  UnmappedQuery,
} from "@stockbridge/shared";
import { MAPPING_SELECTOR_PAGE_SIZE } from "@stockbridge/shared";
import { type PlanGate, planLimitError } from "../billing/plan-gate.ts";
import type { CatalogItem, CatalogVariant, UnmappedProduct, UnmappedSide } from "../catalog/cache-repo.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import { isUniqueViolation, type MappingRepo } from "./repo.ts";
import { createTurns } from "./turns.ts";

export interface MappingServiceDeps {
  repo: MappingRepo;
  /** What the plan allows: no new mapping past its number of mapped products. */
  plans: PlanGate;
  now: () => Date;
  newId: () => string;
}

/** Manual mappings, edits, deletes and the lists of the mapping screen. One variant and one ERP item per mapping. */
export function createMappingService(deps: MappingServiceDeps) {
  const { repo } = deps;
  const turns = createTurns();

  async function requireMapping(userId: string, id: string): Promise<Mapping> {
    const mapping = await repo.get(userId, id);
    if (!mapping) throw new NotFoundError("Mapping not found");
    return mapping;
  }

  /** Both sides must exist in the user's pulled catalogs; an edit may keep a side that has since vanished. */
  async function resolvePair(userId: string, input: MappingInput, current?: Mapping) {
    let variant: CatalogVariant | null = await repo.findVariant(userId, input.shopifyVariantId);
    if (!variant && current?.shopifyDetails.variantId === input.shopifyVariantId) {
      variant = { id: "", variantId: current.shopifyDetails.variantId, sku: current.shopifyDetails.sku };
    }
    if (!variant)
      throw new NotFoundError(
        `Shopify variant ${input.shopifyVariantId} was not found. Fetch the Shopify products and try again.`,
      );
    let item: CatalogItem | null = await repo.findItem(userId, input.acumaticaProductId);
    if (!item && current?.acumaticaDetails.acumaticaId === input.acumaticaProductId) {
      item = { id: "", acumaticaId: current.acumaticaDetails.acumaticaId, sku: current.acumaticaDetails.sku };
    }
    if (!item)
      throw new NotFoundError(
        `Acumatica item ${input.acumaticaProductId} was not found. Fetch the Acumatica products and try again.`,
      );
    return { variant, item };
  }

  async function assertFree(
    userId: string,
    pair: { variant: CatalogVariant; item: CatalogItem },
    selfId?: string,
  ) {
    const byVariant = await repo.findByVariant(userId, pair.variant.variantId);
    if (byVariant && byVariant._id !== selfId) {
      throw new ConflictError(
        `Cannot save mapping: variant ${label(pair.variant.sku, pair.variant.variantId)} is already mapped to ${byVariant.acumaticaDetails.sku}`,
      );
    }
    const byItem = await repo.findByItem(userId, pair.item.acumaticaId);
    if (byItem && byItem._id !== selfId) {
      throw new ConflictError(
        `Cannot save mapping: Acumatica item ${label(pair.item.sku, pair.item.acumaticaId)} is already mapped to ${byItem.shopifyDetails.sku}`,
      );
    }
  }

  /** The UNIQUE constraints are the last word when two saves race: answer the same 409 as the check. */
  async function guardRace<T>(
    userId: string,
    {
      pair,
      selfId,
      write,
    }: {
      pair: { variant: CatalogVariant; item: CatalogItem };
      selfId: string | undefined;
      write: () => Promise<T>;
    },
  ) {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await assertFree(userId, pair, selfId);
      throw new ConflictError(
        "Cannot save mapping: one of these products was mapped at the same time. Reload and try again.",
      );
    }
  }

  /**
   * The total, then the rows. A window in the far half is read from the other end, reversed:
   * skipping costs a step per row, so no page skips more than half the list.
   */
  async function unmappedWindow(
    side: UnmappedSide,
    userId: string,
    window: { term: string; offset: number; limit: number; descending: boolean },
  ): Promise<{ total: number; rows: UnmappedProduct[] }> {
    await turns.next();
    const total = await repo.unmappedTotal(side, userId, window.term);
    if (window.offset >= total) return { total, rows: [] };
    const count = Math.min(window.limit, total - window.offset);
    const fromEnd = total - window.offset - count;
    await turns.next();
    if (fromEnd >= window.offset) return { total, rows: await repo.unmappedPage(side, userId, window) };
    const reversed = await repo.unmappedPage(side, userId, {
      term: window.term,
      offset: fromEnd,
      limit: count,
      descending: !window.descending,
    });
    return { total, rows: reversed.reverse() };
  }

  return {
    async createManual(userId: string, input: MappingInput): Promise<Mapping> {
      const pair = await resolvePair(userId, input);
      await assertFree(userId, pair);
      const mapping = {
        id: deps.newId(),
        userId,
        shopifyVariantId: pair.variant.variantId,
        shopifySku: pair.variant.sku,
        acumaticaId: pair.item.acumaticaId,
        acumaticaSku: pair.item.sku,
        mappingType: "manual" as const,
        now: deps.now().toISOString(),
      };
      let max = await deps.plans.maxMappings(userId);
      // The stored limit refused it: refuse in the plan's words, unless Stripe now allows more.
      for (
        let tried = 1;
        !(await guardRace(userId, { pair, selfId: undefined, write: () => repo.insert(mapping, max) }));
        tried += 1
      ) {
        const refusal = await deps.plans.mappingRefusal(userId, await repo.count(userId));
        if (refusal.message) throw planLimitError(refusal.message);
        if (tried > 1)
          throw new ConflictError(
            "Cannot save mapping: other mappings were saved at the same time. Try again.",
          );
        max = refusal.limit;
      }
      return requireMapping(userId, mapping.id);
    },

    async update(userId: string, id: string, input: MappingInput): Promise<Mapping> {
      const current = await requireMapping(userId, id);
      const pair = await resolvePair(userId, input, current);
      await assertFree(userId, pair, id);
      const samePair =
        current.shopifyDetails.variantId === pair.variant.variantId &&
        current.acumaticaDetails.acumaticaId === pair.item.acumaticaId;
      const updated = await guardRace(userId, {
        pair,
        selfId: id,
        write: () =>
          repo.update({
            id,
            userId,
            shopifyVariantId: pair.variant.variantId,
            shopifySku: pair.variant.sku,
            acumaticaId: pair.item.acumaticaId,
            acumaticaSku: pair.item.sku,
            // A pair chosen by hand is a manual mapping, whatever made the one it replaces.
            mappingType: samePair ? current.mappingType : "manual",
            now: deps.now().toISOString(),
          }),
      });
      if (!updated) throw new NotFoundError("Mapping not found");
      return requireMapping(userId, id);
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await repo.remove(userId, id))) throw new NotFoundError("Mapping not found");
    },

    get: requireMapping,

    /**
     * A page of each unmapped list with its total. Each step is one bounded statement taken in
     * its own event-loop turn (see turns.ts): libSQL answers on this thread, so statements run
     * back to back would hold every other request until the last one ends.
     */
    async unmapped(userId: string, query: UnmappedQuery): Promise<Unmapped> {
      const window = {
        term: query.search.toLowerCase(),
        limit: query.limit,
        descending: query.sortDirection === "desc",
      };
      const shopify = await unmappedWindow("shopify", userId, { ...window, offset: query.shopifyOffset });
      const acumatica = await unmappedWindow("acumatica", userId, {
        ...window,
        offset: query.acumaticaOffset,
      });
      return {
        shopify: shopify.rows.map((row) => ({ _id: row.id, variantId: row.externalId, sku: row.sku })),
        acumatica: acumatica.rows.map((row) => ({ _id: row.id, acumaticaId: row.externalId, sku: row.sku })),
        shopifyTotal: shopify.total,
        acumaticaTotal: acumatica.total,
        shopifyOffset: query.shopifyOffset,
        acumaticaOffset: query.acumaticaOffset,
        limit: query.limit,
      };
    },

    async history(
      userId: string,
      query: { page: number; limit: number; search: string },
    ): Promise<MappingHistory> {
      const { mappings, total } = await repo.page(userId, {
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
        search: query.search,
      });
      return { mappings, total, page: query.page, totalPages: Math.ceil(total / query.limit) };
    },

    async selector(userId: string, query: { page: number; search: string }): Promise<MappingSelector> {
      const size = MAPPING_SELECTOR_PAGE_SIZE;
      const { mappings, total } = await repo.page(userId, {
        offset: (query.page - 1) * size,
        limit: size,
        search: query.search,
      });
      return { mappings, page: query.page, hasMore: query.page * size < total };
    },

    /** In the order asked; ids that are not the caller's (or no longer exist) are left out. */
    async byIds(userId: string, ids: string[]): Promise<Mapping[]> {
      const found = new Map(
        (await repo.byIds(userId, [...new Set(ids)])).map((mapping) => [mapping._id, mapping]),
      );
      return [...new Set(ids)].flatMap((id) => found.get(id) ?? []);
    },
  };
}

export type MappingService = ReturnType<typeof createMappingService>;

function label(sku: string, id: string): string {
  return sku.trim() === "" ? id : sku;
}
