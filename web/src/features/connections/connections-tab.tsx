import type { SandboxConnection } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { FlaskConical, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { AcumaticaConnectionCard } from "./acumatica-connection-card.tsx";
import {
  acumaticaFormFrom,
  acumaticaFormFromSandbox,
  currencyWarning,
  shopifyFormFrom,
  shopifyFormFromSandbox,
} from "./connection-form.ts";
import { connectionsQuery, sandboxConnectionQuery } from "./queries.ts";
import { ShopifyConnectionCard } from "./shopify-connection-card.tsx";

/** Settings > Connections: the Acumatica and Shopify cards side by side (stacked on narrow screens). */
export function ConnectionsTab() {
  const api = useApi();
  const connections = useQuery(connectionsQuery(api));
  const sandbox = useQuery(sandboxConnectionQuery(api));
  // A fill re-creates both cards with the demo values; the user still saves each card.
  const [fill, setFill] = useState<{ generation: number; demo: SandboxConnection } | null>(null);

  if (!connections.data) {
    return (
      <div className="flex justify-center py-16">
        {connections.isError ? (
          <div className="text-center text-sm text-gray-600">
            <p>The connections could not be loaded.</p>
            <Button variant="secondary" className="mt-3" onClick={() => void connections.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <Spinner label="Loading connections" />
        )}
      </div>
    );
  }

  const { acumaticaConnection, shopifyConnection } = connections.data;
  const demo = sandbox.data ?? null;
  const generation = fill?.generation ?? 0;
  const currencies = currencyWarning(acumaticaConnection, shopifyConnection);

  return (
    <div className="flex flex-col gap-6">
      {currencies ? (
        <p
          role="alert"
          className="flex items-center gap-2 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          <TriangleAlert className="size-4 shrink-0 text-amber-600" aria-hidden="true" />
          {currencies}
        </p>
      ) : null}
      {demo ? (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-accent-50 px-4 py-3 text-sm text-accent-800 ring-1 ring-accent-200">
          <p className="flex items-center gap-2">
            <FlaskConical className="size-4 shrink-0" aria-hidden="true" />
            Sandbox mode: a demo Shopify store and Acumatica instance are available. Fill both cards, then
            save and test each one.
          </p>
          <Button variant="secondary" size="sm" onClick={() => setFill({ generation: generation + 1, demo })}>
            Use the sandbox store
          </Button>
        </div>
      ) : null}
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <AcumaticaConnectionCard
          key={`acumatica-${generation}`}
          connection={acumaticaConnection}
          initial={
            fill ? acumaticaFormFromSandbox(fill.demo.acumatica) : acumaticaFormFrom(acumaticaConnection)
          }
        />
        <ShopifyConnectionCard
          key={`shopify-${generation}`}
          connection={shopifyConnection}
          initial={fill ? shopifyFormFromSandbox(fill.demo.shopify) : shopifyFormFrom(shopifyConnection)}
        />
      </div>
    </div>
  );
}
