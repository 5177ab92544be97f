import { Check, Copy, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { Button } from "./button.tsx";
import { toast } from "./toast.tsx";

/**
 * A secret shown the one time it exists (an API token, a webhook signing secret): the warning,
 * the value read-only and selectable, and a Copy button. Without a clipboard (an insecure origin, a
 * denied permission) the field stays there to copy by hand.
 */
export function ShownOnce({
  id,
  label,
  value,
  noun,
}: {
  /** The field's id (its label points at it). */
  id: string;
  label: string;
  value: string;
  /** What it is, in the warning and the copy failure: "token", "secret". */
  noun: string;
}) {
  // Copied is said of the value it was for: a new value starts uncopied.
  const [copiedValue, setCopiedValue] = useState<string | null>(null);
  const copied = copiedValue === value;

  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(value);
      setCopiedValue(value);
    } catch {
      toast.error(`Could not copy: select the ${noun} and copy it yourself.`);
    }
  }

  return (
    <>
      <p
        role="alert"
        className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-amber-900 ring-1 ring-amber-200"
      >
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        Copy this {noun} now. It will not be shown again.
      </p>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={id} className="font-medium text-gray-800">
          {label}
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            id={id}
            readOnly
            value={value}
            onFocus={(event) => event.currentTarget.select()}
            className="min-w-0 flex-1 rounded-md bg-gray-50 px-3 py-2 font-mono text-xs text-gray-900 ring-1 ring-gray-300 ring-inset"
          />
          <Button
            variant="secondary"
            icon={
              copied ? (
                <Check className="size-4" aria-hidden="true" />
              ) : (
                <Copy className="size-4" aria-hidden="true" />
              )
            }
            onClick={() => void copy()}
          >
            {copied ? "Copied" : "Copy"}
          </Button>
        </div>
      </div>
    </>
  );
}
