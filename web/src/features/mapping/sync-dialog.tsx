import { type Mapping, MESSAGES, type SyncOptions, validateSyncOptions } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { useEffect, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { describeChange } from "./mapping-logic.ts";
import { syncPreviewQuery } from "./queries.ts";

const DEFAULT_OPTIONS: SyncOptions = { price: true, quantity: true };

export interface SyncDialogProps {
  /** The mapping to synchronize; null keeps the dialog closed. */
  mapping: Mapping | null;
  onClose(): void;
  onConfirm(mapping: Mapping, options: SyncOptions): void;
}

/**
 * 'Select Sync Options': price and/or quantity, and before confirming, what a sync would change
 * for this mapping right now (a dry run: current -> new per field, or why nothing would).
 */
export function SyncDialog({ mapping, onClose, onConfirm }: SyncDialogProps) {
  const [options, setOptions] = useState<SyncOptions>(DEFAULT_OPTIONS);
  useEffect(() => {
    if (mapping) setOptions(DEFAULT_OPTIONS);
  }, [mapping]);
  const optionsError = validateSyncOptions(options);

  return (
    <Dialog
      open={mapping !== null}
      onClose={onClose}
      title="Select Sync Options"
      description={
        mapping ? (
          <>
            Acumatica <span className="font-medium text-gray-800">{mapping.acumaticaDetails.sku}</span> to
            Shopify <span className="font-medium text-gray-800">{mapping.shopifyDetails.sku}</span>
          </>
        ) : null
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            icon={<RefreshCw className="size-4" aria-hidden="true" />}
            disabled={optionsError !== undefined}
            onClick={() => {
              if (mapping && !optionsError) onConfirm(mapping, options);
            }}
          >
            Sync
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-5">
        <fieldset className="flex flex-col gap-3">
          <legend className="sr-only">Sync options</legend>
          <Checkbox
            label="Sync Price"
            description="Price and MSRP, as chosen in Settings > Mapping"
            checked={options.price}
            onChange={(price) => setOptions((current) => ({ ...current, price }))}
          />
          <Checkbox
            label="Sync Quantity"
            description="The Acumatica quantity chosen in Settings > Mapping"
            checked={options.quantity}
            onChange={(quantity) => setOptions((current) => ({ ...current, quantity }))}
          />
          {optionsError ? (
            <p role="alert" className="text-sm text-red-700">
              {optionsError}
            </p>
          ) : null}
        </fieldset>
        {mapping && !optionsError ? <SyncPreview mapping={mapping} options={options} /> : null}
      </div>
    </Dialog>
  );
}

function SyncPreview({ mapping, options }: { mapping: Mapping; options: SyncOptions }) {
  const api = useApi();
  const preview = useQuery(syncPreviewQuery(api, mapping._id, options));
  const result = preview.data?.results[0];

  return (
    <section
      aria-labelledby="sync-preview-title"
      aria-busy={preview.isFetching || undefined}
      className="rounded-md bg-gray-50 p-4 ring-1 ring-gray-200"
    >
      <h3 id="sync-preview-title" className="mb-2 text-sm font-semibold text-gray-900">
        What will change
      </h3>
      {preview.isPending ? (
        <p className="flex items-center gap-2 text-sm text-gray-600">
          <Spinner size="sm" /> Reading both systems...
        </p>
      ) : preview.isError ? (
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <p role="alert" className="text-red-700">
            Could not check the current values: {errorMessage(preview.error, MESSAGES.mapping.syncFailed)}
          </p>
          <Button size="sm" variant="secondary" onClick={() => void preview.refetch()}>
            Try again
          </Button>
        </div>
      ) : !result ? (
        <p className="text-sm text-gray-600">Nothing to synchronize for this mapping.</p>
      ) : (
        <div className="flex flex-col gap-2 text-sm">
          {result.changes.length > 0 ? (
            <ul className="flex flex-col gap-1.5" aria-label="Planned changes">
              {result.changes.map((change) => {
                const text = describeChange(change);
                return (
                  <li
                    key={`${change.field}:${change.location ?? ""}`}
                    className="flex flex-wrap items-center gap-2"
                  >
                    <span className="w-36 font-medium text-gray-800">{text.label}</span>
                    <span className="tabular-nums text-gray-600">{text.from}</span>
                    <span className="text-gray-400">→</span>
                    <span className="font-semibold tabular-nums text-gray-900">{text.to}</span>
                  </li>
                );
              })}
            </ul>
          ) : result.outcome === "unchanged" ? (
            <p className="text-green-800">Already in line: nothing to change.</p>
          ) : null}
          {result.reason ? (
            <p className="text-amber-800">
              {result.outcome === "skipped" ? "Skipped: " : "Note: "}
              {result.reason}
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}
