import {
  MESSAGES,
  SHOPIFY_API_VERSIONS,
  type ShopifyConnection,
  validateShopifyForm,
} from "@stockbridge/shared";
import { Info, TriangleAlert } from "lucide-react";
import { useCallback } from "react";
import { useApi } from "../../lib/services-context.tsx";
import { PasswordInput } from "../../ui/password-input.tsx";
import { TextInput } from "../../ui/text-input.tsx";
import { ApiVersionSelect, ConnectionCard } from "./connection-card.tsx";
import {
  SAVED_SECRET_PLACEHOLDER,
  type ShopifyFormValues,
  servedVersionNote,
  shopifyFormFrom,
  shopifyInput,
  shopifyVersion,
} from "./connection-form.ts";
import { useConnectionForm } from "./use-connection-form.ts";

export interface ShopifyConnectionCardProps {
  connection: ShopifyConnection | null;
  /** The form's starting values (the saved connection, or the sandbox demo after a fill). */
  initial: ShopifyFormValues;
}

/** The Shopify card: every field of spec section 3, save, test, and the version Shopify served. */
export function ShopifyConnectionCard({ connection, initial }: ShopifyConnectionCardProps) {
  const api = useApi();
  const accessTokenSaved = connection?.accessTokenSet ?? false;
  const validate = useCallback(
    (values: ShopifyFormValues) => validateShopifyForm(values, { accessTokenSaved }),
    [accessTokenSaved],
  );
  const { form, card } = useConnectionForm({
    connection,
    initial,
    validate,
    formFrom: shopifyFormFrom,
    save: (values) => api.call("saveShopify", { body: shopifyInput(values) }),
    test: () => api.call("testShopify"),
    cached: (answer) => ({ shopifyConnection: answer }),
    messages: {
      updated: MESSAGES.connections.shopifyUpdated,
      updateFailed: MESSAGES.connections.shopifyUpdateFailed,
      testOk: MESSAGES.connections.shopifyTestOk,
      testFailed: MESSAGES.connections.shopifyTestFailed,
    },
  });
  const served = connection ? servedVersionNote(connection) : null;
  const deprecation = connection?.deprecationNotice ?? null;

  return (
    <ConnectionCard
      system="Shopify"
      {...card}
      details={
        served || deprecation ? (
          <>
            {served ? <ServedVersionNote served={served} apiVersion={connection?.apiVersion} /> : null}
            {deprecation ? <DeprecationNote notice={deprecation} /> : null}
          </>
        ) : null
      }
    >
      <TextInput label="Name" autoComplete="off" required {...form.field("name")} />
      <ApiVersionSelect
        versions={SHOPIFY_API_VERSIONS}
        toVersion={shopifyVersion}
        field={form.field("apiVersion")}
      />
      <TextInput
        label="Store Name"
        autoComplete="off"
        placeholder="your-store"
        hint="The name in your-store.myshopify.com."
        required
        {...form.field("storeName")}
      />
      <PasswordInput
        label="Access Token"
        autoComplete="new-password"
        placeholder={accessTokenSaved ? SAVED_SECRET_PLACEHOLDER : "shpat_..."}
        hint="The Admin API access token of your custom app."
        required={!accessTokenSaved}
        {...form.field("accessToken")}
      />
    </ConnectionCard>
  );
}

function ServedVersionNote({
  served,
  apiVersion,
}: {
  served: { served: string; fellForward: boolean };
  apiVersion?: string;
}) {
  return (
    <div className="flex gap-2 rounded-md bg-gray-50 p-3 text-sm text-gray-700 ring-1 ring-gray-200">
      <Info className="mt-0.5 size-4 shrink-0 text-gray-500" aria-hidden="true" />
      <div>
        <p className="font-medium text-gray-900">Shopify served {served.served}</p>
        <p className="mt-0.5">
          {served.fellForward
            ? `Version ${apiVersion} has expired, so Shopify answered with the oldest version it still supports instead: expired versions fall forward.`
            : "The version Shopify answered with on the last successful test. Once a version expires, Shopify falls forward to the oldest version it still supports."}
        </p>
      </div>
    </div>
  );
}

/** Shopify's X-Shopify-API-Deprecated-Reason: something Stockbridge sends will stop working in a later version. */
function DeprecationNote({ notice }: { notice: string }) {
  return (
    <div
      role="status"
      className="mt-2 flex gap-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
      <div>
        <p className="font-medium">Shopify reports deprecated API use</p>
        <p className="mt-0.5 break-words">{notice}</p>
      </div>
    </div>
  );
}
