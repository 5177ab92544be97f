import {
  type AcumaticaWarehouse,
  LOCATION_RULES,
  type LocationMapping,
  type Settings,
  type ShopifyLocation,
} from "@stockbridge/shared";
import type { ConnectionsService } from "../connections/service.ts";
import { readWarehouses } from "../connectors/acumatica/warehouses.ts";
import type { Connectors } from "../connectors/connectors.ts";
import { readLocations } from "../connectors/shopify/locations.ts";
import { type FieldIssue, ValidationError } from "../errors.ts";
import type { SettingsRepo } from "../settings/repo.ts";
import type { SitesRepo } from "./repo.ts";

export interface LocationsServiceDeps {
  sites: SitesRepo;
  settings: Pick<SettingsRepo, "saveLocationMapping">;
  connections: Pick<ConnectionsService, "shopifyCredentials" | "acumaticaCredentials">;
  connectors: Connectors;
  now: () => Date;
}

/**
 * The store's locations and the ERP's warehouses (kept by the catalog pulls, read now when none
 * are kept) and the location mapping between them, checked against both.
 */
export function createLocationsService(deps: LocationsServiceDeps) {
  const { sites } = deps;

  async function readShopifyLocations(userId: string): Promise<ShopifyLocation[]> {
    const credentials = await deps.connections.shopifyCredentials(userId);
    const client = deps.connectors.shopify(credentials);
    const locations = await readLocations(client.execute);
    await sites.saveLocations(userId, locations, deps.now().toISOString());
    return locations;
  }

  async function readAcumaticaWarehouses(userId: string): Promise<AcumaticaWarehouse[]> {
    const connection = await deps.connections.acumaticaCredentials(userId);
    const warehouses = await deps.connectors.acumatica(connection, readWarehouses);
    await sites.saveWarehouses(userId, warehouses, deps.now().toISOString());
    return warehouses;
  }

  async function locations(userId: string): Promise<ShopifyLocation[]> {
    return (await sites.locations(userId)) ?? readShopifyLocations(userId);
  }

  async function warehouses(userId: string): Promise<AcumaticaWarehouse[]> {
    return (await sites.warehouses(userId)) ?? readAcumaticaWarehouses(userId);
  }

  /** Ids the mapping names that `known` lacks, each with the rule it breaks. */
  function unknownIds(
    mapping: LocationMapping,
    known: { locations: readonly ShopifyLocation[]; warehouses: readonly AcumaticaWarehouse[] },
  ): FieldIssue[] {
    const active = new Set(known.locations.filter((l) => l.isActive).map((l) => l.id));
    const warehouseIds = new Set(known.warehouses.map((w) => w.id.toUpperCase()));
    const issues: FieldIssue[] = [];
    mapping.locations.forEach((location, index) => {
      if (!active.has(location.shopifyLocationId))
        issues.push({
          path: `locations.${index}.shopifyLocationId`,
          message: LOCATION_RULES.unknownLocation(location.shopifyLocationId),
        });
      location.warehouseIds.forEach((id, at) => {
        if (!warehouseIds.has(id.toUpperCase()))
          issues.push({
            path: `locations.${index}.warehouseIds.${at}`,
            message: LOCATION_RULES.unknownWarehouse(id),
          });
      });
    });
    return issues;
  }

  return {
    locations,
    warehouses,

    /**
     * Saves the mapping once every id names an active location and a warehouse (the shape rules
     * are the shared schema's). Ids unknown to the kept lists are checked again against fresh
     * reads: a location or warehouse added since the last pull is accepted.
     */
    async saveMapping(userId: string, mapping: LocationMapping): Promise<LocationMapping> {
      const [keptLocations, keptWarehouses] = await Promise.all([locations(userId), warehouses(userId)]);
      let known = { locations: keptLocations, warehouses: keptWarehouses };
      if (unknownIds(mapping, known).length > 0) {
        known = {
          locations: await readShopifyLocations(userId),
          warehouses: await readAcumaticaWarehouses(userId),
        };
      }
      const issues = unknownIds(mapping, known);
      if (issues.length > 0) throw new ValidationError(issues[0]!.message, issues);
      // Warehouse ids are kept as the ERP spells them (Acumatica keys are case-insensitive).
      const spelled = new Map(known.warehouses.map((w) => [w.id.toUpperCase(), w.id]));
      const saved: LocationMapping = {
        locations: mapping.locations.map((location) => ({
          shopifyLocationId: location.shopifyLocationId,
          warehouseIds: [...new Set(location.warehouseIds.map((id) => spelled.get(id.toUpperCase()) ?? id))],
        })),
      };
      await deps.settings.saveLocationMapping(userId, saved, deps.now().toISOString());
      return saved;
    },

    /**
     * The mapping as Settings shows it: the saved one, or the default spelled out (the primary
     * location fed by every warehouse) from the kept lists; empty while the store's locations are
     * not known.
     */
    async shown(userId: string, saved: Settings["locationMapping"]): Promise<Settings["locationMapping"]> {
      if (saved.locations.length > 0) return saved;
      const [kept, keptWarehouses] = await Promise.all([sites.locations(userId), sites.warehouses(userId)]);
      const primary = kept?.find((location) => location.isPrimary && location.isActive);
      // Both lists are needed to spell it out truthfully; until then it stays unlisted.
      if (!primary || !keptWarehouses) return { locations: [] };
      return {
        locations: [{ shopifyLocationId: primary.id, warehouseIds: keptWarehouses.map((w) => w.id) }],
      };
    },
  };
}

export type LocationsService = ReturnType<typeof createLocationsService>;
