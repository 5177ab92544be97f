import type { PriceMapping, QuantityMapping, SafetyLimits, Settings } from "@stockbridge/shared";
import type { LocationsService } from "../locations/service.ts";
import type { SettingsRepo } from "./repo.ts";

export interface SettingsServiceDeps {
  repo: SettingsRepo;
  /** Spells out the default location mapping from the kept locations and warehouses. */
  locations: Pick<LocationsService, "shown">;
  now: () => Date;
}

/** Which quantity and price fields a sync moves. Input shape and the "one price field" rule are the shared schemas'. */
export function createSettingsService(deps: SettingsServiceDeps) {
  const { repo } = deps;
  return {
    async read(userId: string): Promise<Settings> {
      const settings = await repo.read(userId);
      return { ...settings, locationMapping: await deps.locations.shown(userId, settings.locationMapping) };
    },

    async saveQuantityMapping(userId: string, mapping: QuantityMapping): Promise<QuantityMapping> {
      await repo.saveQuantity(userId, mapping, deps.now().toISOString());
      return (await repo.read(userId)).quantityMapping;
    },

    async savePriceMapping(userId: string, mapping: PriceMapping): Promise<PriceMapping> {
      await repo.savePrice(userId, mapping, deps.now().toISOString());
      return (await repo.read(userId)).priceMapping;
    },

    readSafetyLimits(userId: string): Promise<SafetyLimits> {
      return repo.readSafety(userId);
    },

    /** Bounds and whole numbers are the shared schema's (checked at the boundary). */
    async saveSafetyLimits(userId: string, limits: SafetyLimits): Promise<SafetyLimits> {
      await repo.saveSafety(userId, limits, deps.now().toISOString());
      return repo.readSafety(userId);
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
