import { MESSAGES } from "@stockbridge/shared";
import { Link } from "@tanstack/react-router";
import { format } from "date-fns";
import { AlertTriangle, Download } from "lucide-react";
import type { ReactNode } from "react";
import { useOnlineStatus } from "../../lib/use-online-status.ts";
import { Button } from "../../ui/button.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { JobProgress } from "../jobs/job-progress.tsx";
import type { JobRunner } from "../jobs/use-job-runner.ts";

export interface ProductCatalogProps {
  title: string;
  system: "Shopify" | "Acumatica";
  /** The user's saved connection of this system, or null when there is none. */
  connection: { isVerified: boolean } | null;
  pull: JobRunner;
  /** The table (DataTable in server mode). */
  children: ReactNode;
}

/**
 * The frame both product screens share: title, 'Get Products' (or why it cannot run yet, with a
 * link to Settings), the pull's progress, then the table.
 */
export function ProductCatalog({ title, system, connection, pull, children }: ProductCatalogProps) {
  const ready = connection?.isVerified === true;
  // A pull needs the server: offline the button says why it cannot run instead of spinning.
  const online = useOnlineStatus();
  return (
    <>
      <PageHeader
        title={title}
        actions={
          ready || pull.running ? (
            <Button
              onClick={pull.start}
              disabled={pull.running || !online}
              title={online ? undefined : MESSAGES.generic.offline}
              aria-busy={pull.running || undefined}
              icon={<Download className="size-4" aria-hidden="true" />}
            >
              {pull.running ? "Fetching..." : "Get Products"}
            </Button>
          ) : null
        }
      />
      {ready || pull.running ? null : <ConnectionNotice system={system} saved={connection !== null} />}
      {pull.running ? (
        <JobProgress job={pull.job} label={`Fetching ${system} products`} className="mb-4" />
      ) : null}
      {children}
    </>
  );
}

function ConnectionNotice({ system, saved }: { system: string; saved: boolean }) {
  return (
    <div className="mb-4 flex flex-wrap items-start gap-3 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
      <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p className="min-w-0 flex-1">
        {saved
          ? `Your ${system} connection is not verified yet. Test it in Settings before fetching products.`
          : `No ${system} connection is saved yet. Connect ${system} in Settings to fetch products.`}
      </p>
      <Link to="/settings" className="font-medium text-amber-900 underline hover:text-amber-950">
        Open Settings
      </Link>
    </div>
  );
}

/**
 * 'Last synced: Oct 1, 2026 09:00' (spec format 'MMM d, yyyy HH:mm'); 'Never' before a first pull
 * (`null`); nothing while it is not known yet (`undefined`).
 */
export function LastSynced({ at }: { at: string | null | undefined }) {
  if (at === undefined) return null;
  return (
    <p className="text-sm whitespace-nowrap text-gray-600">
      Last synced: {at ? format(new Date(at), "MMM d, yyyy HH:mm") : "Never"}
    </p>
  );
}
