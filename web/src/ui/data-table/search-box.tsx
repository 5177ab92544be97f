import { Search, X } from "lucide-react";
import { cn } from "../cn.ts";
import { controlClass } from "../field.tsx";

export interface SearchBoxProps {
  value: string;
  onChange(value: string): void;
  /** The clear button: empties the box at once (no debounce). */
  onClear(): void;
  label?: string;
  placeholder?: string;
  className?: string;
}

export function SearchBox({
  value,
  onChange,
  onClear,
  label = "Search",
  placeholder = "Search...",
  className,
}: SearchBoxProps) {
  return (
    <div className={cn("relative w-full sm:max-w-xs", className)}>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-gray-400"
      />
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape" && value) {
            event.preventDefault();
            onClear();
          }
        }}
        className={cn(controlClass, "pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden")}
      />
      {value ? (
        <button
          type="button"
          onClick={onClear}
          aria-label="Clear search"
          title="Clear search"
          className="absolute inset-y-0 right-0 flex w-9 items-center justify-center rounded-r-md text-gray-500 hover:text-gray-800"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      ) : null}
    </div>
  );
}
