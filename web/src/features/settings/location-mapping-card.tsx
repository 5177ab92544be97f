import {
  type AcumaticaWarehouse,
  type LocationMapping,
  MESSAGES,
  type Settings,
  type ShopifyLocation,
} from "@stockbridge/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Card } from "../../ui/card.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { toast } from "../../ui/toast.tsx";
import { feedsOf, mappingOf, toggleWarehouse } from "./location-mapping.ts";
import { acumaticaWarehousesQuery, settingsKeys, shopifyLocationsQuery } from "./mapping-settings-queries.ts";

/**
 * For each active Shopify location, the ERP warehouses whose quantity feeds it. A warehouse feeds
 * at most one location: ticking it under one location unticks it elsewhere. Until a mapping is
 * saved the server shows the default (the primary location fed by every warehouse).
 */
export function LocationMappingCard({ saved }: { saved: Settings["locationMapping"] }) {
  const api = useApi();
  const locations = useQuery(shopifyLocationsQuery(api));
  const warehouses = useQuery(acumaticaWarehousesQuery(api));

  return (
    <Card region title="Location Mapping" className="min-w-0">
      {locations.data && warehouses.data ? (
        <LocationMappingForm saved={saved} locations={locations.data} warehouses={warehouses.data} />
      ) : locations.isError || warehouses.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3 text-sm text-gray-600">
          <p>
            {errorMessage(
              locations.error ?? warehouses.error,
              locations.isError ? MESSAGES.settings.locationsFailed : MESSAGES.settings.warehousesFailed,
            )}
          </p>
          <Button
            variant="secondary"
            onClick={() => {
              if (locations.isError) void locations.refetch();
              if (warehouses.isError) void warehouses.refetch();
            }}
          >
            Try again
          </Button>
        </div>
      ) : (
        <div className="flex justify-center py-6">
          <Spinner label="Loading locations and warehouses" />
        </div>
      )}
    </Card>
  );
}

function LocationMappingForm({
  saved,
  locations,
  warehouses,
}: {
  saved: Settings["locationMapping"];
  locations: ShopifyLocation[];
  warehouses: AcumaticaWarehouse[];
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const active = locations.filter((location) => location.isActive);
  // Unsaved edits only; null shows what the server has.
  const [draft, setDraft] = useState<Map<string, string[]> | null>(null);
  const feeds = draft ?? feedsOf(saved, { locations: active, warehouses });

  const save = useMutation({
    mutationFn: (mapping: LocationMapping) => api.call("saveLocationMapping", { body: mapping }),
    onSuccess: async () => {
      toast.success(MESSAGES.settings.locationSaved);
      setDraft(null);
      await queryClient.invalidateQueries({ queryKey: settingsKeys.detail() });
    },
    // The server's 400 names the rule (a warehouse feeding two locations, no location at all, ...).
    onError: (error) => toast.error(errorMessage(error, MESSAGES.settings.locationFailed)),
  });

  if (active.length === 0 || warehouses.length === 0) {
    return (
      <p className="text-sm text-gray-600">
        {active.length === 0
          ? "The Shopify store has no active location to map."
          : "Acumatica has no warehouse to map."}
      </p>
    );
  }

  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (!save.isPending) save.mutate(mappingOf(feeds, active));
      }}
    >
      <p className="text-sm text-gray-600">
        For each Shopify location, the Acumatica warehouses whose quantity (the Acumatica Quantity above) is
        summed into it. A warehouse feeds one location at most; a location with no warehouse is not synced.
      </p>
      {active.map((location) => (
        <fieldset key={location.id} className="flex flex-col gap-2 rounded-md border border-gray-200 p-3">
          <legend className="px-1 text-sm font-semibold text-gray-800">
            {location.name}
            {location.isPrimary ? <span className="ml-2 font-normal text-gray-500">(primary)</span> : null}
          </legend>
          {warehouses.map((warehouse) => (
            <Checkbox
              key={warehouse.id}
              label={warehouse.id}
              description={warehouse.description || undefined}
              checked={(feeds.get(location.id) ?? []).includes(warehouse.id)}
              onChange={(checked) =>
                setDraft(
                  toggleWarehouse(feeds, { locationId: location.id, warehouseId: warehouse.id, checked }),
                )
              }
            />
          ))}
        </fieldset>
      ))}
      <div className="flex justify-end pt-1">
        <Button type="submit" loading={save.isPending}>
          Save Location Mapping
        </Button>
      </div>
    </form>
  );
}
