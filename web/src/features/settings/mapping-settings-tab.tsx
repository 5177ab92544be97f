import { useQuery } from "@tanstack/react-query";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { LocationMappingCard } from "./location-mapping-card.tsx";
import { settingsQuery } from "./mapping-settings-queries.ts";
import { PriceMappingCard } from "./price-mapping-card.tsx";
import { QuantityMappingCard } from "./quantity-mapping-card.tsx";
import { SafetyLimitsCard } from "./safety-limits-card.tsx";

/** Settings > Mapping: the Quantity Mapping and Price Mapping cards, then Location Mapping and Safety Limits, each saved on its own. */
export function MappingSettingsTab() {
  const api = useApi();
  const settings = useQuery(settingsQuery(api));

  if (!settings.data) {
    return (
      <div className="flex justify-center py-16">
        {settings.isError ? (
          <div className="text-center text-sm text-gray-600">
            <p>The mapping settings could not be loaded.</p>
            <Button variant="secondary" className="mt-3" onClick={() => void settings.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <Spinner label="Loading mapping settings" />
        )}
      </div>
    );
  }

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <QuantityMappingCard saved={settings.data.quantityMapping} />
      <PriceMappingCard saved={settings.data.priceMapping} />
      <LocationMappingCard saved={settings.data.locationMapping} />
      <SafetyLimitsCard />
    </div>
  );
}
