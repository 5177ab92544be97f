import type { CreatedToken } from "@stockbridge/shared";
import { Check, Copy, TriangleAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { toast } from "../../ui/toast.tsx";

/**
 * The one time a token's secret is shown: read-only, selectable, with a Copy button. Closing the
 * dialog drops it for good (the server keeps only its hash).
 */
export function NewTokenDialog({ token, onClose }: { token: CreatedToken | null; onClose(): void }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (token) setCopied(false);
  }, [token]);

  async function copy(secret: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a denied permission): the field stays there to copy by hand.
      toast.error("Could not copy: select the token and copy it yourself.");
    }
  }

  return (
    <Dialog
      open={token !== null}
      onClose={onClose}
      title="API token created"
      size="md"
      footer={<Button onClick={onClose}>Done</Button>}
    >
      {token ? (
        <div className="flex flex-col gap-4 text-sm text-gray-700">
          <p
            role="alert"
            className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-amber-900 ring-1 ring-amber-200"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            Copy this token now. It will not be shown again.
          </p>
          <div className="flex flex-col gap-1.5">
            <label htmlFor="new-api-token" className="font-medium text-gray-800">
              Token “{token.name}”
            </label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input
                id="new-api-token"
                readOnly
                value={token.token}
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
                onClick={() => void copy(token.token)}
              >
                {copied ? "Copied" : "Copy"}
              </Button>
            </div>
          </div>
          <p className="text-gray-600">
            Send it as <code className="font-mono text-xs">Authorization: Bearer …</code>, or set{" "}
            <code className="font-mono text-xs">STOCKBRIDGE_TOKEN</code> for the CLI.
          </p>
        </div>
      ) : null}
    </Dialog>
  );
}
