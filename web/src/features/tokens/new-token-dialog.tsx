import type { CreatedToken } from "@stockbridge/shared";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { ShownOnce } from "../../ui/shown-once.tsx";

/**
 * The one time a token's secret is shown: read-only, selectable, with a Copy button. Closing the
 * dialog drops it for good (the server keeps only its hash).
 */
export function NewTokenDialog({ token, onClose }: { token: CreatedToken | null; onClose(): void }) {
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
          <ShownOnce id="new-api-token" label={`Token “${token.name}”`} value={token.token} noun="token" />
          <p className="text-gray-600">
            Send it as <code className="font-mono text-xs">Authorization: Bearer …</code>, or set{" "}
            <code className="font-mono text-xs">STOCKBRIDGE_TOKEN</code> for the CLI.
          </p>
        </div>
      ) : null}
    </Dialog>
  );
}
