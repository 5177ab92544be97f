import {
  INFINITE_SCROLL_THRESHOLD_PX,
  MAPPING_MENU_MAX_HEIGHT_PX,
  MAPPING_SELECTOR_DEBOUNCE_MS,
  type Mapping,
  MESSAGES,
} from "@stockbridge/shared";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Search, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { IconButton } from "../../ui/button.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { TextInput } from "../../ui/text-input.tsx";
import { mappingSelectorQuery } from "./queries.ts";

export interface MappingMultiSelectProps {
  selected: readonly Mapping[];
  onChange(selected: Mapping[]): void;
}

/** "SKU-1 → SKU-1": both sides of a mapping, ids when a SKU is empty. */
function mappingLabel(mapping: Mapping): string {
  const shopify = mapping.shopifyDetails.sku || mapping.shopifyDetails.variantId;
  const acumatica = mapping.acumaticaDetails.sku || mapping.acumaticaDetails.acumaticaId;
  return `${shopify} → ${acumatica}`;
}

/**
 * The schedule's mapping choice: a searchable list (search debounced 1000 ms, at once on Enter) that
 * loads the next page when scrolled within 50 px of its end, and the 'Selected Mappings' table.
 */
export function MappingMultiSelect({ selected, onChange }: MappingMultiSelectProps) {
  const api = useApi();
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const listRef = useRef<HTMLFieldSetElement>(null);
  const headingId = useId();

  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), MAPPING_SELECTOR_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const selector = useInfiniteQuery(mappingSelectorQuery(api, search));
  const options = selector.data?.pages.flatMap((page) => page.mappings) ?? [];
  const chosen = new Set(selected.map((mapping) => mapping._id));

  function loadMoreIfNearEnd() {
    const list = listRef.current;
    if (!list || !selector.hasNextPage || selector.isFetchingNextPage) return;
    if (list.scrollHeight - list.scrollTop - list.clientHeight <= INFINITE_SCROLL_THRESHOLD_PX) {
      void selector.fetchNextPage();
    }
  }

  // A first page too short to scroll would otherwise never load the rest.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check whenever a page arrives
  useEffect(loadMoreIfNearEnd, [selector.data, selector.hasNextPage, selector.isFetchingNextPage]);

  function toggle(mapping: Mapping, on: boolean) {
    if (on && !chosen.has(mapping._id)) onChange([...selected, mapping]);
    if (!on) onChange(selected.filter((item) => item._id !== mapping._id));
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <div className="relative">
          <TextInput
            label="Search mappings"
            hideLabel
            type="search"
            placeholder="Search mappings..."
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== "Enter") return;
              // Enter searches now; it must not submit the schedule form.
              event.preventDefault();
              setSearch(typed.trim());
            }}
            inputClassName="pl-9"
          />
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-gray-400"
          />
        </div>
        <fieldset
          ref={listRef}
          aria-label="Mappings"
          aria-busy={selector.isFetching || undefined}
          onScroll={loadMoreIfNearEnd}
          style={{ maxHeight: MAPPING_MENU_MAX_HEIGHT_PX }}
          className="m-0 min-w-0 overflow-y-auto rounded-md border-0 p-0 ring-1 ring-gray-200"
        >
          {selector.isError ? (
            <p role="alert" className="p-3 text-sm text-red-700">
              {errorMessage(selector.error, MESSAGES.mapping.fetchMappingsFailed)}
            </p>
          ) : options.length === 0 && !selector.isFetching ? (
            <p className="p-3 text-sm text-gray-500">
              {search
                ? "No matching mappings"
                : "No mappings yet. Map products on the Product Mapping screen."}
            </p>
          ) : (
            <ul className="divide-y divide-gray-100">
              {options.map((mapping) => (
                <li key={mapping._id} className="px-3 py-2 hover:bg-gray-50">
                  <Checkbox
                    label={mappingLabel(mapping)}
                    checked={chosen.has(mapping._id)}
                    onChange={(on) => toggle(mapping, on)}
                  />
                </li>
              ))}
            </ul>
          )}
          {selector.isFetching ? (
            <div className="flex justify-center p-2">
              <Spinner size="sm" />
            </div>
          ) : null}
        </fieldset>
      </div>

      <section aria-labelledby={headingId} className="flex flex-col gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-gray-900">
          Selected Mappings
        </h3>
        {selected.length === 0 ? (
          <p className="text-sm text-gray-500">No mappings selected.</p>
        ) : (
          <div className="overflow-x-auto rounded-md ring-1 ring-gray-200">
            <table aria-labelledby={headingId} className="min-w-full text-sm">
              <thead className="bg-gray-50 text-left text-gray-600">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Shopify SKU
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Acumatica SKU
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100">
                {selected.map((mapping) => (
                  <tr key={mapping._id}>
                    <td className="px-3 py-2 whitespace-nowrap">{mapping.shopifyDetails.sku || "-"}</td>
                    <td className="px-3 py-2 whitespace-nowrap">{mapping.acumaticaDetails.sku || "-"}</td>
                    <td className="px-3 py-1 text-right">
                      <IconButton
                        label={`Remove ${mappingLabel(mapping)}`}
                        icon={<X className="size-4" aria-hidden="true" />}
                        onClick={() => toggle(mapping, false)}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
