import {
  MESSAGES,
  SHOPIFY_API_VERSIONS,
  type ShopifyConnection,
  validateShopifyForm,
} from "@stockbridge/shared";
import { useMutation } from "@tanstack/react-query";
import { Info } from "lucide-react";
import { useCallback } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { useForm } from "../../lib/use-form.ts";
import { PasswordInput } from "../../ui/password-input.tsx";
import { Select } from "../../ui/select.tsx";
import { TextInput } from "../../ui/text-input.tsx";
import { toast } from "../../ui/toast.tsx";
import { ConnectionCard } from "./connection-card.tsx";
import {
  SAVED_SECRET_PLACEHOLDER,
  type ShopifyFormValues,
  servedVersionNote,
  shopifyFormFrom,
  shopifyInput,
  shopifyVersion,
} from "./connection-form.ts";
import { useConnectionCache } from "./use-connection-cache.ts";

const VERSION_OPTIONS = SHOPIFY_API_VERSIONS.map((version) => ({ value: version, label: version }));

export interface ShopifyConnectionCardProps {
  connection: ShopifyConnection | null;
  /** The form's starting values (the saved connection, or the sandbox demo after a fill). */
  initial: ShopifyFormValues;
}

/** The Shopify card: every field of spec section 3, save, test, and the version Shopify served. */
export function ShopifyConnectionCard({ connection, initial }: ShopifyConnectionCardProps) {
  const api = useApi();
  const cache = useConnectionCache();
  const accessTokenSaved = connection?.accessTokenSet ?? false;
  const validate = useCallback(
    (values: ShopifyFormValues) => validateShopifyForm(values, { accessTokenSaved }),
    [accessTokenSaved],
  );

  const save = useMutation({
    mutationFn: (values: ShopifyFormValues) => api.call("saveShopify", { body: shopifyInput(values) }),
    onSuccess(saved) {
      cache.replace({ shopifyConnection: saved });
      form.reset(shopifyFormFrom(saved));
      toast.success(MESSAGES.connections.shopifyUpdated);
      void cache.refreshUser();
    },
    onError(error) {
      toast.error(errorMessage(error, MESSAGES.connections.shopifyUpdateFailed));
    },
  });

  const test = useMutation({
    mutationFn: () => api.call("testShopify"),
    onSuccess(tested) {
      cache.replace({ shopifyConnection: tested });
      toast.success(MESSAGES.connections.shopifyTestOk);
      void cache.refreshUser();
    },
    onError(error) {
      toast.error(errorMessage(error, MESSAGES.connections.shopifyTestFailed));
      cache.reload();
      void cache.refreshUser();
    },
  });

  const form = useForm<ShopifyFormValues>({
    initial,
    validate,
    onSubmit: async (values) => {
      await save.mutateAsync(values).catch(() => undefined);
    },
  });

  const savedForm = shopifyFormFrom(connection);
  const dirty = (Object.keys(savedForm) as (keyof ShopifyFormValues)[]).some(
    (key) => form.values[key] !== savedForm[key],
  );
  const apiVersion = form.field("apiVersion");
  const served = connection ? servedVersionNote(connection) : null;

  return (
    <ConnectionCard
      system="Shopify"
      status={connection}
      dirty={dirty}
      saving={save.isPending}
      testing={test.isPending}
      onSubmit={(event) => void form.handleSubmit(event)}
      onTest={() => test.mutate()}
      details={
        served ? (
          <div className="flex gap-2 rounded-md bg-gray-50 p-3 text-sm text-gray-700 ring-1 ring-gray-200">
            <Info className="mt-0.5 size-4 shrink-0 text-gray-500" aria-hidden="true" />
            <div>
              <p className="font-medium text-gray-900">Shopify served {served.served}</p>
              <p className="mt-0.5">
                {served.fellForward
                  ? `Version ${connection?.apiVersion} has expired, so Shopify answered with the oldest version it still supports instead: expired versions fall forward.`
                  : "The version Shopify answered with on the last successful test. Once a version expires, Shopify falls forward to the oldest version it still supports."}
              </p>
            </div>
          </div>
        ) : null
      }
    >
      <TextInput label="Name" autoComplete="off" required {...form.field("name")} />
      <Select
        label="API Version"
        options={VERSION_OPTIONS}
        name={apiVersion.name}
        value={shopifyVersion(apiVersion.value)}
        onChange={(value) => apiVersion.onChange({ target: { value } })}
        error={apiVersion.error}
        required
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
