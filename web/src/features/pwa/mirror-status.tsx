import { useSyncExternalStore } from "react";
import type { MirrorList } from "../../db/mirror-rows.ts";
import { useServices } from "../../lib/services-context.tsx";

const LIST_NAMES: Record<MirrorList, string> = {
  shopify: "Shopify products",
  acumatica: "Acumatica products",
  mappings: "Mappings",
  schedules: "Schedules",
  history: "Execution history",
};

/**
 * The first fill of the offline mirror, while it runs: which lists are still being saved and how
 * far each is. Gone once every list can be read offline.
 */
export function MirrorStatus() {
  const { mirror } = useServices();
  const progress = useSyncExternalStore(mirror.subscribe, mirror.progress, mirror.progress);
  const current = progress.filling[0];
  if (!current) return null;
  const total = current.total ?? 0;
  const percent = total > 0 ? Math.min(100, Math.round((current.saved / total) * 100)) : null;
  return (
    <div
      role="status"
      aria-label="Saving lists for offline use"
      className="fixed right-3 bottom-3 z-40 w-72 rounded-lg bg-white px-3 py-2 text-xs text-gray-700 shadow-lg ring-1 ring-gray-200"
    >
      <p className="font-medium text-gray-900">Saving lists for offline use</p>
      <p>
        {LIST_NAMES[current.list]}: {current.saved.toLocaleString("en-US")}
        {current.total !== null ? ` of ${current.total.toLocaleString("en-US")}` : ""}
        {progress.filling.length > 1 ? ` (${progress.filling.length - 1} more lists)` : ""}
      </p>
      {percent !== null ? (
        <div className="mt-1 h-1.5 rounded bg-gray-100" aria-hidden="true">
          <div className="h-1.5 rounded bg-indigo-600" style={{ width: `${percent}%` }} />
        </div>
      ) : null}
    </div>
  );
}
