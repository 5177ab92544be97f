import { type Mapping, MESSAGES, type SyncOptions } from "@stockbridge/shared";
import { useIsFetching, useMutation, useQueryClient } from "@tanstack/react-query";
import { Link2, Wand2 } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { useOnlineStatus } from "../../lib/use-online-status.ts";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { Tabs } from "../../ui/tabs.tsx";
import { toast } from "../../ui/toast.tsx";
import { historyKeys } from "../history/queries.ts";
import { productKeys } from "../products/queries.ts";
import { AutoMappingProgress, AutoMapReportDialog, useAutoMapping } from "./auto-mapping.tsx";
import { ManualMappingDialog } from "./manual-mapping-dialog.tsx";
import { syncOutcomeToast } from "./mapping-logic.ts";
import { MappingTable } from "./mapping-table.tsx";
import { mappingKeys } from "./queries.ts";
import { SyncDialog } from "./sync-dialog.tsx";
import { UnmappedTable } from "./unmapped-table.tsx";

type MappingTab = "mapping" | "unmapped";

/** Product Mapping (spec section 2): mappings and unmapped products, auto and manual mapping, sync. */
export function MappingScreen() {
  const api = useApi();
  const online = useOnlineStatus();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<MappingTab>("mapping");
  // The edited mapping outlives `open` so the title does not change while the dialog fades out.
  const [manual, setManual] = useState<{ open: boolean; editing: Mapping | null }>({
    open: false,
    editing: null,
  });
  const [syncTarget, setSyncTarget] = useState<Mapping | null>(null);
  const [deleting, setDeleting] = useState<Mapping | null>(null);
  const [syncing, setSyncing] = useState<ReadonlySet<string>>(new Set());
  const autoMapping = useAutoMapping();
  const loading =
    useIsFetching({ queryKey: mappingKeys.history() }) + useIsFetching({ queryKey: mappingKeys.unmapped() }) >
    0;
  const busy = loading || autoMapping.running;

  const remove = useMutation({
    mutationFn: (mapping: Mapping) => api.call("deleteMapping", { params: { id: mapping._id } }),
    onSuccess: async () => {
      toast.success(MESSAGES.mapping.deleted);
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    },
    onError: (error) => toast.error(errorMessage(error, MESSAGES.mapping.deleteFailed)),
  });

  /** The row shows its syncing state until the run answers; several rows may sync at once. */
  async function sync(mapping: Mapping, options: SyncOptions): Promise<void> {
    setSyncTarget(null);
    setSyncing((current) => new Set(current).add(mapping._id));
    try {
      const run = await api.call("syncMapping", {
        params: { id: mapping._id },
        body: { syncOptions: options },
      });
      const outcome = syncOutcomeToast(run.results[0]);
      toast[outcome.tone](outcome.text);
      if (outcome.tone === "success") await queryClient.invalidateQueries({ queryKey: productKeys.all });
    } catch (error) {
      toast.error(errorMessage(error, MESSAGES.mapping.syncFailed));
    } finally {
      setSyncing((current) => {
        const next = new Set(current);
        next.delete(mapping._id);
        return next;
      });
      // Every real run is a new execution-history entry, whatever its outcome.
      void queryClient.invalidateQueries({ queryKey: historyKeys.all });
      void queryClient.invalidateQueries({ queryKey: mappingKeys.history() });
    }
  }

  return (
    <>
      <PageHeader
        title="Product Mapping"
        description="Pair each Shopify variant with its Acumatica item, then keep prices and stock in line."
        actions={
          <>
            <Button
              variant="secondary"
              icon={<Wand2 className="size-4" aria-hidden="true" />}
              onClick={autoMapping.start}
              disabled={busy || !online}
              title={online ? undefined : MESSAGES.generic.offline}
              loading={autoMapping.running}
            >
              Auto Mapping
            </Button>
            <Button
              icon={<Link2 className="size-4" aria-hidden="true" />}
              onClick={() => setManual({ open: true, editing: null })}
              disabled={busy}
            >
              Manual Mapping
            </Button>
          </>
        }
      />
      {autoMapping.running ? <AutoMappingProgress job={autoMapping.job} /> : null}
      <Tabs<MappingTab>
        label="Mapping views"
        selectedId={tab}
        onChange={setTab}
        tabs={[
          {
            id: "mapping",
            label: "Mapping",
            content: (
              <MappingTable
                syncing={syncing}
                onSync={setSyncTarget}
                onEdit={(mapping) => setManual({ open: true, editing: mapping })}
                onDelete={setDeleting}
              />
            ),
          },
          { id: "unmapped", label: "Unmapped Products", content: <UnmappedTable /> },
        ]}
      />
      <ManualMappingDialog
        open={manual.open}
        editing={manual.editing}
        onClose={() => setManual((current) => ({ ...current, open: false }))}
      />
      <SyncDialog
        mapping={syncTarget}
        onClose={() => setSyncTarget(null)}
        onConfirm={(mapping, options) => void sync(mapping, options)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting);
        }}
        title="Delete Mapping"
        message="Are you sure you want to delete this mapping? This action cannot be undone."
        confirmLabel="Delete"
        loading={remove.isPending}
      />
      <AutoMapReportDialog report={autoMapping.report} onClose={autoMapping.closeReport} />
    </>
  );
}
