import type { Handlers } from "../http/contract-routes.ts";
import type { SettingsService } from "./service.ts";

/** Thin adapters from the contract to the settings service. */
export function settingsHandlers(settings: SettingsService): Handlers {
  return {
    settings: ({ caller }) => settings.read(caller.userId),
    quantityMapping: async ({ caller }) => ({
      quantityMapping: (await settings.read(caller.userId)).quantityMapping,
    }),
    saveQuantityMapping: async ({ caller, input }) => ({
      quantityMapping: await settings.saveQuantityMapping(caller.userId, input.body),
    }),
    priceMapping: async ({ caller }) => ({ priceMapping: (await settings.read(caller.userId)).priceMapping }),
    savePriceMapping: async ({ caller, input }) => ({
      priceMapping: await settings.savePriceMapping(caller.userId, input.body),
    }),
    safetyLimits: ({ caller }) => settings.readSafetyLimits(caller.userId),
    saveSafetyLimits: ({ caller, input }) => settings.saveSafetyLimits(caller.userId, input.body),
  };
}
