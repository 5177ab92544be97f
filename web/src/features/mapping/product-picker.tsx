import {
  Combobox,
  ComboboxButton,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Field,
  Label,
} from "@headlessui/react";
import { MAPPING_MENU_MAX_HEIGHT_PX } from "@stockbridge/shared";
import { Check, ChevronsUpDown } from "lucide-react";
import { type CSSProperties, useMemo, useState } from "react";
import { cn } from "../../ui/cn.ts";
import { controlClass } from "../../ui/field.tsx";
import { filterChoices, type ProductChoice } from "./mapping-logic.ts";

/** Rendering thousands of options would stall typing; people narrow the list by typing instead. */
const MAX_SHOWN = 100;

export interface ProductPickerProps {
  label: string;
  choices: readonly ProductChoice[];
  value: string | null;
  onChange(id: string | null): void;
  disabled?: boolean;
  loading?: boolean;
}

/** A searchable pick list of one system's products (Headless UI Combobox), menu at most 350 px. */
export function ProductPicker({ label, choices, value, onChange, disabled, loading }: ProductPickerProps) {
  const [query, setQuery] = useState("");
  const selected = useMemo(() => choices.find((choice) => choice.id === value) ?? null, [choices, value]);
  const { shown, matched } = useMemo(() => filterChoices(choices, query, MAX_SHOWN), [choices, query]);

  return (
    <Field className="flex flex-col gap-1.5" disabled={disabled}>
      <Label className="text-sm font-medium text-gray-800">{label}</Label>
      <Combobox
        value={selected}
        by="id"
        onChange={(choice: ProductChoice | null) => onChange(choice?.id ?? null)}
        onClose={() => setQuery("")}
        immediate
      >
        <div className="relative">
          <ComboboxInput
            className={cn(controlClass, "pr-9")}
            displayValue={(choice: ProductChoice | null) => choice?.sku ?? ""}
            onChange={(event) => setQuery(event.target.value)}
            placeholder={loading ? "Loading products..." : "Type a SKU to search"}
            autoComplete="off"
            spellCheck={false}
          />
          <ComboboxButton
            aria-label={`Show ${label} choices`}
            className="absolute inset-y-0 right-0 flex w-9 items-center justify-center text-gray-500"
          >
            <ChevronsUpDown className="size-4" aria-hidden="true" />
          </ComboboxButton>
        </div>
        <ComboboxOptions
          anchor="bottom start"
          // Headless UI sizes an anchored menu by this variable (capped by the space on screen).
          style={{ "--anchor-max-height": `${MAPPING_MENU_MAX_HEIGHT_PX}px` } as CSSProperties}
          className="z-[60] w-(--input-width) overflow-y-auto rounded-md bg-white py-1 text-sm shadow-lg ring-1 ring-gray-200 [--anchor-gap:4px] empty:invisible"
        >
          {shown.length === 0 ? (
            <div className="px-3 py-2 text-gray-500">
              {loading ? "Loading products..." : query ? "No matching products" : "No unmapped products"}
            </div>
          ) : (
            shown.map((choice) => (
              <ComboboxOption
                key={choice.id}
                value={choice}
                className="group flex cursor-default items-center gap-2 px-3 py-2 text-gray-800 select-none data-focus:bg-accent-50 data-focus:text-accent-800"
              >
                <Check
                  className="invisible size-4 shrink-0 text-accent-600 group-data-selected:visible"
                  aria-hidden="true"
                />
                <span className="truncate">{choice.sku}</span>
              </ComboboxOption>
            ))
          )}
          {matched > shown.length ? (
            <div className="border-t border-gray-100 px-3 py-2 text-xs text-gray-500">
              Showing {shown.length} of {matched}: type to narrow the list.
            </div>
          ) : null}
        </ComboboxOptions>
      </Combobox>
    </Field>
  );
}
