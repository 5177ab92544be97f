import type { PriceMapping, QuantityMapping, Settings } from "@stockbridge/shared";
import type { SettingsRepo } from "./repo.ts";

export interface SettingsServiceDeps {
  repo: SettingsRepo;
  now: () => Date;
}

/** Which quantity and price fields a sync moves. Input shape and the "one price field" rule are the shared schemas'. */
export function createSettingsService(deps: SettingsServiceDeps) {
  const { repo } = deps;
  return {
    read(userId: string): Promise<Settings> {
      return repo.read(userId);
    },

    async saveQuantityMapping(userId: string, mapping: QuantityMapping): Promise<QuantityMapping> {
      await repo.saveQuantity(userId, mapping, deps.now().toISOString());
      return (await repo.read(userId)).quantityMapping;
    },

    async savePriceMapping(userId: string, mapping: PriceMapping): Promise<PriceMapping> {
      await repo.savePrice(userId, mapping, deps.now().toISOString());
      return (await repo.read(userId)).priceMapping;
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
