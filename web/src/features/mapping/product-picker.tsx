import {
  Combobox,
  ComboboxButton,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Field,
  Label,
} from "@headlessui/react";
import { MAPPING_MENU_MAX_HEIGHT_PX, MAX_PAGE_SIZE, TABLE_SEARCH_DEBOUNCE_MS } from "@stockbridge/shared";
import { Check, ChevronsUpDown } from "lucide-react";
import { type CSSProperties, useEffect, useMemo, useRef, useState } from "react";
import { cn } from "../../ui/cn.ts";
import { controlClass } from "../../ui/field.tsx";
import { filterChoices, type ProductChoice } from "./mapping-logic.ts";

/** What one pick list shows at once; people narrow the list by typing (the server searches). */
export const PICKER_PAGE_SIZE = MAX_PAGE_SIZE;

export interface ProductPickerProps {
  label: string;
  /** The products matching the last search sent, at most a page of them. */
  choices: readonly ProductChoice[];
  /** How many products match that search in all. */
  total: number;
  value: ProductChoice | null;
  onChange(choice: ProductChoice | null): void;
  /** The typed text, trimmed, 500 ms after typing stops (at once when cleared). */
  onSearchChange(search: string): void;
  disabled?: boolean;
  /** No answer yet for the first search. */
  loading?: boolean;
  /** The answer for the last search sent is still on its way. */
  searching?: boolean;
}

/** A searchable pick list of one system's products (Headless UI Combobox), menu at most 350 px. */
export function ProductPicker(props: ProductPickerProps) {
  const { label, choices, total, value, onChange, onSearchChange, disabled, loading, searching } = props;
  const [query, setQuery] = useState("");
  const applied = useDebouncedText(query, onSearchChange);
  const waiting = searching || query.trim() !== applied;
  // Until the server answers the new text, the choices it gave are narrowed here.
  const shown = useMemo(() => filterChoices(choices, query, PICKER_PAGE_SIZE), [choices, query]);

  return (
    <Field className="flex flex-col gap-1.5" disabled={disabled}>
      <Label className="text-sm font-medium text-gray-800">{label}</Label>
      <Combobox
        value={value}
        by="id"
        onChange={(choice: ProductChoice | null) => onChange(choice)}
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
              {loading
                ? "Loading products..."
                : waiting
                  ? "Searching..."
                  : query
                    ? "No matching products"
                    : "No unmapped products"}
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
          {total > shown.length && shown.length > 0 ? (
            <div className="border-t border-gray-100 px-3 py-2 text-xs text-gray-500">
              Showing {shown.length} of {total}: type to narrow the list.
            </div>
          ) : null}
        </ComboboxOptions>
      </Combobox>
    </Field>
  );
}

/** Hands `onApply` the trimmed text once typing pauses (at once when cleared); answers the text applied. */
function useDebouncedText(text: string, onApply: (text: string) => void): string {
  const [applied, setApplied] = useState("");
  const onApplyRef = useRef(onApply);
  onApplyRef.current = onApply;
  useEffect(() => {
    const trimmed = text.trim();
    const timer = setTimeout(
      () => {
        setApplied(trimmed);
        onApplyRef.current(trimmed);
      },
      trimmed ? TABLE_SEARCH_DEBOUNCE_MS : 0,
    );
    return () => clearTimeout(timer);
  }, [text]);
  return applied;
}
